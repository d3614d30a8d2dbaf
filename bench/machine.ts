/**
 * What every benchmark records next to its figures: the machine it ran on, and its own section
 * of BENCHMARKS.md (replaced on each run, other sections left as they are).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

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
export async function writeBenchmarkSection(path: string, name: string, body: string): Promise<void> {
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
