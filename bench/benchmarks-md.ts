/**
 * The one writer of BENCHMARKS.md: every bench hands it figures as targets, tables and
 * paragraphs, and it renders them the same way (a head naming command, machine and date; verdicts
 * on the median with the range; markdown tables) and replaces that bench's own section, leaving
 * the other sections as they are. Also the machine line every section records.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The CPU's family and model numbers from /proc/cpuinfo (Linux), e.g. "family 26 model 2"; undefined
 * elsewhere. Why: a virtual machine often names its CPU only "AMD EPYC", and hosts behind that one
 * name ran the same bare loop at 0.14 and 0.31 ms of CPU per request on the same day.
 */
function cpuFamily(): string | undefined {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const family = /^cpu family\s*:\s*(\d+)/m.exec(info)?.[1];
    const model = /^model\s*:\s*(\d+)/m.exec(info)?.[1];
    return family === undefined || model === undefined ? undefined : `family ${family} model ${model}`;
  } catch {
    return undefined;
  }
}

/** One line: CPU model (with its family), cores, RAM, Node version, platform, and the load average when it started. */
export function machineLine(): string {
  const cores = cpus();
  const family = cpuFamily();
  const model = `${cores[0]?.model.trim() ?? 'unknown CPU'}${family === undefined ? '' : ` (${family})`}`;
  const ram = (totalmem() / 1024 ** 3).toFixed(1);
  // The load average says how shared the machine was: these figures come from busy shared hosts.
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${model} · ${cores.length} cores · ${ram} GiB RAM · Node ${process.version} · ${process.platform}-${process.arch} · load average ${load}`;
}

/** The nearest directory at or above `start` holding a package.json (the repository root). */
export function packageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${start}`);
  }
}

/** Why the file holds only today's figures: the history of a figure is in git, not in a journal. */
const TITLE = [
  '# Benchmarks',
  '',
  "Today's figures only; their history is in git (`git log -p BENCHMARKS.md`). Each `npm run bench:*` script owns one section,",
  'headed by its command, machine and date, and replaces it when it runs.',
  '',
].join('\n');

/**
 * Replaces the section `## <name>` of the markdown file at `path` with `body` (or appends it),
 * leaving every other section untouched. `body` is the section's text without its heading.
 */
async function replaceSection(path: string, name: string, body: string): Promise<void> {
  const before = existsSync(path) ? await readFile(path, 'utf8') : TITLE;
  const heading = `## ${name}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const lines = before.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) {
    await writeFile(path, `${before.trimEnd()}\n\n${section}`);
    return;
  }
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const head = lines.slice(0, start).join('\n').trimEnd();
  const tail = next < 0 ? '' : `\n${lines.slice(next).join('\n').trimEnd()}\n`;
  await writeFile(path, `${head}\n\n${section}${tail}`);
}

/** The repository's BENCHMARKS.md. */
const BENCHMARKS_MD = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'BENCHMARKS.md');

/** Replaces the section `## name` of BENCHMARKS.md with `body` (its text without the heading). */
export async function writeSection(name: string, body: string): Promise<void> {
  await replaceSection(BENCHMARKS_MD, name, body);
}

// ---------------------------------------------------------------- figures as text

export const fixed = (value: number, digits = 2): string => value.toFixed(digits);

/** 6000 → "6k", 1000000 → "1M"; other numbers as they are. */
export const count = (n: number): string =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);

export const ratioText = (value: number, base: number): string => (base > 0 ? `${fixed(value / base)}×` : '-');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** "min–max" of `values`. */
export const range = (values: readonly number[], digits = 2): string =>
  `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}`;

/** PASS or MISS; '—' for a figure shown for information (no target). */
export const verdict = (ok: boolean | undefined): string => (ok === undefined ? '—' : ok ? 'PASS' : 'MISS');

// ---------------------------------------------------------------- blocks

/** A markdown table: numeric columns right-aligned unless `align` says otherwise. */
export interface Table {
  head: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
  /** Per column: 'l' or 'r' (default: 'l' for the first column, 'r' for the others). */
  align?: ReadonlyArray<'l' | 'r'>;
}

export function tableLines(table: Table): string[] {
  const align = table.head.map((_, i) => table.align?.[i] ?? (i === 0 ? 'l' : 'r'));
  return [
    `| ${table.head.join(' | ')} |`,
    `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`,
    ...table.rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** A target judged on the median of a bench's rounds; `pass` absent: shown for information. */
export interface MedianTarget {
  name: string;
  values: readonly number[];
  pass?: (median: number) => boolean;
  digits?: number;
}

/** target | median | range | verdict. */
export function medianTargets(targets: readonly MedianTarget[]): Table {
  return {
    head: ['target', 'median', 'range', 'verdict'],
    align: ['l', 'r', 'r', 'l'],
    rows: targets.map((t) => {
      const digits = t.digits ?? 2;
      const m = median(t.values);
      return [t.name, fixed(m, digits), range(t.values, digits), verdict(t.pass?.(m))];
    }),
  };
}

/** A target judged on one measurement; `ok` absent: shown for information. */
export interface Measured {
  target: string;
  measured: string;
  ok?: boolean;
}

/** target | measured | verdict. */
export function measuredTargets(rows: readonly Measured[]): Table {
  return { head: ['target', 'measured', 'verdict'], align: ['l', 'l', 'l'], rows: rows.map((r) => [r.target, r.measured, verdict(r.ok)]) };
}

/** A section's block: a paragraph, a `### heading`, or a table. */
export type Block = string | { heading: string } | Table;

/** What heads every section: how to reproduce it, where and when it ran. */
export interface SectionHead {
  command: string;
  machine: string;
  date: string;
}

/** The section body: its head, then each block separated by a blank line. */
export function sectionBody(head: SectionHead, blocks: readonly Block[]): string {
  const parts = [[`Command: \`${head.command}\`  `, `Machine: ${head.machine}  `, `Date: ${head.date}`].join('\n')];
  for (const block of blocks) {
    if (typeof block === 'string') {
      if (block !== '') parts.push(block);
    } else if ('heading' in block) parts.push(`### ${block.heading}`);
    else parts.push(tableLines(block).join('\n'));
  }
  return parts.join('\n\n');
}

/** The same blocks for the terminal: tables and headings, without the paragraphs. */
export function printable(blocks: readonly Block[]): string {
  return blocks
    .filter((block) => typeof block !== 'string')
    .map((block) => ('heading' in block ? `${block.heading}:` : tableLines(block).join('\n')))
    .join('\n\n');
}
