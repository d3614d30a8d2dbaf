/**
 * `npm run bench:plan` (after `npm run build`): importer and planner against bare csv-parse on the
 * same generated file, in the same run, and the targets of issue 3. Writes the "bench:plan"
 * section of BENCHMARKS.md.
 *
 * Usage: node dist/bench/plan.js [SIZE ...] [--quick] [--profile redfin|native] [--seed N] [--runs N]
 *   SIZE like 100k, 1M or 250000 (default 100k 1M; --quick: 20k 100k).
 * Internally it re-runs itself with --phase NAME for each measured phase.
 */
import { spawn } from 'node:child_process';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFeedCsv, type ExpectedPlan, type FeedProfile, type FeedShape } from './generate-feed.js';
import { machineLine, writeSection } from './benchmarks-md.js';
import { PHASES, runPhase, type PhaseArgs, type PhaseName, type PhaseResult } from './plan-phases.js';
import { printable, sectionBody, type SizeResult } from './plan-report.js';
import { displayParagraph, measureDisplay } from './plan-display.js';

const RESULT_MARK = 'BENCH_PHASE_RESULT ';

interface Options {
  sizes: number[];
  profile: FeedProfile;
  seed: number;
  runs: number;
  phase?: PhaseName;
  phaseArgs?: PhaseArgs;
}

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text);
  if (match === null) throw new Error(`not a size: ${text} (use 100k, 1M or a number)`);
  const scale = match[2] === '' ? 1 : match[2]?.toLowerCase() === 'k' ? 1000 : 1_000_000;
  return Math.round(Number(match[1]) * scale);
}

function parseOptions(argv: readonly string[]): Options {
  const sizes: number[] = [];
  const options: Options = { sizes, profile: 'redfin', seed: 42, runs: 2 };
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') {
      const profile = value();
      if (profile !== 'redfin' && profile !== 'native') throw new Error('--profile is redfin or native');
      options.profile = profile;
    } else if (arg === '--seed') options.seed = Number(value());
    else if (arg === '--runs') options.runs = Math.max(1, Number(value()));
    else if (arg === '--phase') {
      const phase = value();
      if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`unknown phase ${phase}`);
      options.phase = phase as PhaseName;
      options.phaseArgs = JSON.parse(value()) as PhaseArgs;
    } else sizes.push(parseSize(arg));
  }
  if (sizes.length === 0) sizes.push(...(quick ? [20_000, 100_000] : [100_000, 1_000_000]));
  sizes.sort((a, b) => a - b);
  return options;
}

/** Runs one phase in a fresh Node process and reads its result line. */
async function inChild(phase: PhaseName, args: PhaseArgs): Promise<PhaseResult> {
  const script = fileURLToPath(import.meta.url);
  // --expose-gc only lets the import+plan phase collect the garbage of building its input before timing; nothing else calls gc().
  const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', script, '--phase', phase, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  const line = output.split('\n').find((candidate) => candidate.startsWith(RESULT_MARK));
  if (code !== 0 || line === undefined) throw new Error(`phase ${phase} failed (exit ${String(code)}): ${output.slice(-2000)}`);
  return JSON.parse(line.slice(RESULT_MARK.length)) as PhaseResult;
}

function describe(result: PhaseResult): string {
  const rate = result.rows / (result.ms / 1000);
  return `${result.phase}: ${result.rows} rows in ${(result.ms / 1000).toFixed(2)} s (${rate.toFixed(0)} rows/s, cpu ${(result.cpuMs / 1000).toFixed(2)} s), peak RSS ${result.peakRssMiB.toFixed(0)} MiB ${JSON.stringify(result.extra)}`;
}

async function measureSize(rows: number, options: Options): Promise<SizeResult> {
  const shape: FeedShape = { listings: rows, seed: options.seed, profile: options.profile };
  const file = join(tmpdir(), `listing-sync-bench-${options.profile}-${rows}-${options.seed}.csv`);
  const started = performance.now();
  const written = await writeFeedCsv(file, shape);
  console.error(
    `# ${rows} listings: wrote ${file} (${(written.bytes / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const args: PhaseArgs = { file, shape, expected: written.expected satisfies ExpectedPlan };
  const result: SizeResult = {
    rows,
    fileMiB: written.bytes / 2 ** 20,
    baseline: [],
    importer: [],
    importerWorker: [],
    importPlan: [],
    planner: undefined as unknown as PhaseResult,
  };
  try {
    // Interleaved so that a noisy neighbour hurts the baseline and the subject alike.
    for (let run = 0; run < options.runs; run++) {
      for (const [phase, into] of [
        ['baseline', result.baseline],
        ['importer', result.importer],
        ['importer-worker', result.importerWorker],
        ['import-plan', result.importPlan],
      ] as const) {
        const measured = await inChild(phase, args);
        console.error(`  ${describe(measured)}`);
        into.push(measured);
      }
    }
    result.planner = await inChild('planner', args);
    console.error(`  ${describe(result.planner)}`);
  } finally {
    await unlink(file).catch(() => undefined);
  }
  return result;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.phase !== undefined && options.phaseArgs !== undefined) {
    const result = await runPhase(options.phase, options.phaseArgs);
    process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
    return;
  }
  const machine = machineLine();
  const command = ['npm run bench:plan', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  console.error(`# ${machine}`);
  const sizes: SizeResult[] = [];
  for (const rows of options.sizes) sizes.push(await measureSize(rows, options));
  console.log(printable(sizes));
  const display = displayParagraph(measureDisplay());
  console.log(display);
  const report = sectionBody({ command, machine, date: new Date().toISOString(), runs: options.runs, profile: options.profile }, sizes);
  await writeSection('bench:plan', `${report}\n\n${display}`);
  console.error('# wrote the bench:plan section of BENCHMARKS.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
