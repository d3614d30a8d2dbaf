/**
 * `node dist/bench/sync.js` (after `npm run build`; `npm run bench:sync` is sync-cli.ts, the
 * built CLI as a process): the queue's write throughput, in this one process, against the ideal
 * concurrency ÷ latency and against plain undici measured in the same round, service calls
 * against the minimal calls, and Redis commands per job. Writes the "bench:sync in-process" section of
 * BENCHMARKS.md. Needs a Redis at REDIS_URL (default redis://127.0.0.1:6379); everything it
 * writes there is under a fresh prefix and removed at the end.
 *
 * Usage: node dist/bench/sync.js [--changed N] [--mix migration|nightly] [--rounds N] [--concurrency N] [--latency MS] [--no-write] [--profile DIR]
 *   --mix: see sync-scenario.ts (default migration: every change a create).
 *   --profile DIR: also write a CPU profile of each round's work phase to DIR.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLine, packageRoot, writeBenchmarkSection } from './machine.js';
import { apiClientBaseline, undiciBaseline } from './sync-baseline.js';
import { runQueueSync } from './sync-queue.js';
import { installClientCounter } from './sync-redis-stats.js';
import { printable, sectionBody, type SyncBenchInfo, type SyncRound } from './sync-report.js';
import { buildScenario, SCENARIO_MIXES, type ScenarioMix } from './sync-scenario.js';

interface Options {
  changed: number;
  rounds: number;
  concurrency: number;
  latencyMs: number;
  mix: ScenarioMix;
  write: boolean;
  profileDir?: string;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { changed: 10_000, rounds: 3, concurrency: 16, latencyMs: 20, mix: 'migration', write: true };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const number = (): number => {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a whole number ≥ 1`);
      return value;
    };
    if (arg === '--changed') options.changed = number();
    else if (arg === '--rounds') options.rounds = number();
    else if (arg === '--concurrency') options.concurrency = number();
    else if (arg === '--latency') options.latencyMs = number();
    else if (arg === '--mix') {
      const mix = argv[++i] ?? '';
      if (!Object.hasOwn(SCENARIO_MIXES, mix)) throw new Error(`--mix is one of ${Object.keys(SCENARIO_MIXES).join(', ')}`);
      options.mix = mix as ScenarioMix;
    } else if (arg === '--no-write') options.write = false;
    else if (arg === '--profile') options.profileDir = argv[++i] ?? 'bench-profiles';
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** The command as typed, for the record (npm run when run without options). */
function commandLine(argv: readonly string[]): string {
  return argv.length === 0 ? 'npm run bench:sync' : `node dist/bench/sync.js ${argv.join(' ')}`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  // Why a bench reads the env itself: it is a script beside the CLI, not part of src/.
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  installClientCounter();
  const machine = machineLine();
  const scenario = buildScenario({
    changed: options.changed,
    mix: options.mix,
    unchanged: 980,
    deleted: 20,
    deleteBatchSize: 100,
    pageSize: 100,
  });
  const rounds: SyncRound[] = [];
  const loads: number[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    loads.push(loadavg()[0] ?? 0);
    process.stderr.write(`round ${round}/${options.rounds}: plain undici baseline…\n`);
    const undici = await undiciBaseline(scenario, options.latencyMs, options.concurrency);
    process.stderr.write(`round ${round}/${options.rounds}: ApiClient baseline…\n`);
    const apiClient = await apiClientBaseline(scenario, options.latencyMs, options.concurrency);
    process.stderr.write(`round ${round}/${options.rounds}: queue (runSync + workers)…\n`);
    const queue = await runQueueSync(scenario, {
      redisUrl,
      latencyMs: options.latencyMs,
      concurrency: options.concurrency,
      ...(options.profileDir === undefined ? {} : { profileDir: options.profileDir }),
    });
    rounds.push({ undici, apiClient, queue });
  }
  const info: SyncBenchInfo = {
    command: commandLine(argv),
    machine,
    date: new Date().toISOString(),
    latencyMs: options.latencyMs,
    concurrency: options.concurrency,
    redisUrl: redisUrl.replace(/\/\/[^@/]*@/, '//***@'),
    scenario,
    rounds,
    loads,
  };
  process.stdout.write(`${printable(info)}\n`);
  if (options.write) {
    const path = join(packageRoot(fileURLToPath(new URL('.', import.meta.url))), 'BENCHMARKS.md');
    await writeBenchmarkSection(path, 'bench:sync in-process', sectionBody(info));
    process.stdout.write(`wrote the bench:sync in-process section of ${path}\n`);
  }
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bench:sync failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
  process.exitCode = 1;
});
