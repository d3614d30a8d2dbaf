// The one writer of BENCHMARKS.md: a bench declares its section as data (paragraphs, headings, tables, targets); `publish`
// renders each alike (command, machine, date, verdicts on the median), prints it and replaces that section only.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Why family and model: a VM often names its CPU only "AMD EPYC", and hosts behind that name ran the bare loop at 0.14 and 0.31 ms/request. */
function cpuFamily(): string | undefined {
  const info = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const family = /^cpu family\s*:\s*(\d+)/m.exec(info)?.[1];
  const model = /^model\s*:\s*(\d+)/m.exec(info)?.[1];
  return family === undefined || model === undefined ? undefined : `family ${family} model ${model}`;
}

function machineLine(): string {
  const cores = cpus();
  const family = cpuFamily();
  const model = `${cores[0]?.model.trim() ?? 'unknown CPU'}${family === undefined ? '' : ` (${family})`}`;
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${model} · ${cores.length} cores · ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM · Node ${process.version} · ${process.platform}-${process.arch} · load average ${load}`;
}

/** The repository root: the nearest directory at or above `start` holding a package.json. */
export function packageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${start}`);
  }
}

const BENCHMARKS_MD = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'BENCHMARKS.md');

/** Why the file holds only today's figures: the history of a figure is in git, not in a journal. */
const TITLE =
  "# Benchmarks\n\nToday's figures only; their history is in git (`git log -p BENCHMARKS.md`). Each `npm run bench:*` script owns one " +
  'section, headed by its command, machine and date, and replaces it when it runs.\n';

async function writeSection(name: string, body: string): Promise<void> {
  const before = existsSync(BENCHMARKS_MD) ? await readFile(BENCHMARKS_MD, 'utf8') : TITLE;
  const heading = `## ${name}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const lines = before.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return await writeFile(BENCHMARKS_MD, `${before.trimEnd()}\n\n${section}`);
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const tail = next < 0 ? '' : `\n${lines.slice(next).join('\n').trimEnd()}\n`;
  await writeFile(BENCHMARKS_MD, `${lines.slice(0, start).join('\n').trimEnd()}\n\n${section}${tail}`);
}

export const fixed = (value: number, digits = 2): string => value.toFixed(digits);
export const int = (value: number): string => value.toFixed(0);

export const count = (n: number): string =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);

export const ratioText = (value: number, base: number): string => (base > 0 ? `${fixed(value / base)}×` : '-');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const range = (values: readonly number[], digits: number): string =>
  `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}`;

export const verdict = (ok: boolean | undefined): string => (ok === undefined ? '—' : ok ? 'PASS' : 'MISS');

type Cell = string | number;

/** A markdown table: the first column left-aligned, the others right-aligned unless `align` says otherwise. */
export interface Table {
  head: readonly string[];
  rows: ReadonlyArray<readonly Cell[]>;
  align?: ReadonlyArray<'l' | 'r'>;
}

export type Column<T> = readonly [head: string, cell: (row: T, index: number) => Cell, align?: 'l' | 'r'];

export function table<T>(rows: readonly T[], columns: ReadonlyArray<Column<T>>, extra: ReadonlyArray<readonly Cell[]> = []): Table {
  return {
    head: columns.map(([head]) => head),
    align: columns.map(([, , align], i) => align ?? (i === 0 ? 'l' : 'r')),
    rows: [...rows.map((row, i) => columns.map(([, cell]) => cell(row, i))), ...extra],
  };
}

/** A table of one row, each column given as its head, value and alignment. */
export const oneRow = (cells: ReadonlyArray<readonly [head: string, value: Cell, align?: 'l' | 'r']>): Table =>
  table(
    [0],
    cells.map(([head, value, align]) => [head, () => value, align] as const),
  );

function tableLines(t: Table): string[] {
  const align = t.head.map((_, i) => t.align?.[i] ?? (i === 0 ? 'l' : 'r'));
  return [
    `| ${t.head.join(' | ')} |`,
    `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`,
    ...t.rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** A target judged on the median of a bench's rounds: its name, values, pass rule (none: shown for information), digits. */
export type MedianTarget = readonly [name: string, values: readonly number[], pass?: (median: number) => boolean, digits?: number];

export const medianTargets = (targets: readonly MedianTarget[]): Table =>
  table(targets, [
    ['target', ([name]) => name],
    ['median', ([, values, , digits]) => fixed(median(values), digits ?? 2)],
    ['range', ([, values, , digits]) => range(values, digits ?? 2)],
    ['verdict', ([, values, pass]) => verdict(pass?.(median(values))), 'l'],
  ]);

/** A target judged on one measurement: target, measured, whether it holds (none: shown for information). */
export type Measured = readonly [target: string, measured: string, ok?: boolean];

export const measuredTargets = (rows: readonly Measured[]): Table =>
  table(rows, [
    ['target', ([target]) => target],
    ['measured', ([, measured]) => measured, 'l'],
    ['verdict', ([, , ok]) => verdict(ok), 'l'],
  ]);

export const missed = (blocks: readonly Block[]): boolean =>
  blocks.some((b) => typeof b === 'object' && 'rows' in b && b.head.at(-1) === 'verdict' && b.rows.some((row) => row.at(-1) === 'MISS'));

/** A section's block: a paragraph, a `### heading`, or a table ('' or undefined: left out). */
export type Block = string | undefined | { heading: string } | Table;

export function head(script: string, argv: readonly string[] = process.argv.slice(2)) {
  return {
    command: `npm run ${script}${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
    machine: machineLine(),
    date: new Date().toISOString(),
  };
}
export type SectionHead = ReturnType<typeof head>;

function sectionBody(at: SectionHead, blocks: readonly Block[]): string {
  const parts = [`Command: \`${at.command}\`  \nMachine: ${at.machine}  \nDate: ${at.date}`];
  for (const block of blocks) {
    if (block === undefined || block === '') continue;
    if (typeof block === 'string') parts.push(block);
    else parts.push('heading' in block ? `### ${block.heading}` : tableLines(block).join('\n'));
  }
  return parts.join('\n\n');
}

function printable(blocks: readonly Block[]): string {
  return blocks
    .flatMap((block) =>
      block === undefined || typeof block === 'string' ? [] : ['heading' in block ? `${block.heading}:` : tableLines(block).join('\n')],
    )
    .join('\n\n');
}

/** Prints the section's tables and headings and, unless `write` is false, replaces its section; returns whether a target was missed. */
export async function publish(name: string, at: SectionHead, write: boolean, blocks: readonly Block[]): Promise<boolean> {
  process.stdout.write(`${name} — ${at.machine}\n\n${printable(blocks)}\n`);
  if (write) {
    await writeSection(name, sectionBody(at, blocks));
    process.stdout.write(`wrote the "${name}" section of BENCHMARKS.md\n`);
  }
  return missed(blocks);
}
