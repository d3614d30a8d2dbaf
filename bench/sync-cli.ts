/**
 * `npm run bench:sync` (after `npm run build`): the built CLI against the simulator (20 ms
 * latency), with every ratio against a baseline measured in the same round:
 * - writes phase of `sync --work` ÷ the bare keep-alive loop (target ≥ 0.95);
 * - the whole command, start to exit, ÷ ideal (creates ÷ (concurrency ÷ latency); target ≥ 0.85);
 * - Redis round trips per job (whole command, every connection of the CLI process);
 * - service calls ÷ minimal (1.00) and the CLI's peak RSS;
 * - writes/s for 1, 2 and 4 `listing-sync worker` processes under --global-concurrency 16 and 64
 *   (the CLI only enqueues), beside G split by hand (--concurrency G ÷ N, no pool) in the same run,
 *   and a 100k-listing migration's peak RSS.
 * Writes the "bench:sync" section of BENCHMARKS.md. Needs Redis at REDIS_URL (default
 * redis://127.0.0.1:6379); everything it writes there is under fresh prefixes, removed at the end.
 *
 * Usage: node dist/bench/sync-cli.js [--creates N] [--rounds N] [--concurrency N] [--latency MS]
 *   [--processes 1,2,4] [--globals 16,64] [--process-creates N] [--rss-listings N|0] [--no-write]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { machineLine, packageRoot, writeBenchmarkSection } from './machine.js';
import { cleanPrefix } from './sync-redis-stats.js';
import { runProcesses, type ProcessesResult } from './sync-processes.js';
import { printWire, wireSection, type WireInfo, type WireRound } from './sync-wire-report.js';
import { prepareWireScenario, removeWireScenario, runBareLoop, runCliWork, type CliWorkResult } from './sync-wire.js';

interface Options {
  creates: number;
  rounds: number;
  concurrency: number;
  latencyMs: number;
  processes: number[];
  globals: number[];
  processCreates: number;
  rssListings: number;
  write: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = {
    creates: 6000,
    rounds: 3,
    concurrency: 16,
    latencyMs: 20,
    processes: [1, 2, 4],
    globals: [16, 64],
    processCreates: 6000,
    rssListings: 100_000,
    write: true,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const number = (min = 1): number => {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < min) throw new Error(`${arg} needs a whole number ≥ ${min}`);
      return value;
    };
    const list = (): number[] =>
      (argv[++i] ?? '')
        .split(',')
        .filter((s) => s !== '')
        .map(Number);
    if (arg === '--creates') options.creates = number();
    else if (arg === '--rounds') options.rounds = number();
    else if (arg === '--concurrency') options.concurrency = number();
    else if (arg === '--latency') options.latencyMs = number();
    else if (arg === '--processes') options.processes = list();
    else if (arg === '--globals') options.globals = list();
    else if (arg === '--process-creates') options.processCreates = number();
    else if (arg === '--rss-listings') options.rssListings = number(0);
    else if (arg === '--no-write') options.write = false;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

const newPrefix = (what: string): string => `bench-${what}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  // Why a bench reads the env itself: it is a script beside the CLI, not part of src/.
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const machine = machineLine();
  const scenario = await prepareWireScenario(options.creates, options.concurrency, options.latencyMs);
  const rounds: WireRound[] = [];
  const processes: ProcessesResult[] = [];
  let rss: CliWorkResult | undefined;
  try {
    for (let round = 1; round <= options.rounds; round += 1) {
      const load = loadavg()[0] ?? 0;
      process.stderr.write(`round ${round}/${options.rounds}: bare keep-alive loop…\n`);
      const bare = await runBareLoop(scenario);
      process.stderr.write(`round ${round}/${options.rounds}: sync --work…\n`);
      const prefix = newPrefix('wire');
      try {
        rounds.push({ load, bare, cli: await runCliWork(scenario, redisUrl, prefix) });
      } finally {
        await cleanPrefix(admin, prefix);
      }
    }
    for (const global of options.globals) {
      for (const count of options.processes) {
        for (const mode of ['pool', 'split'] as const) {
          process.stderr.write(
            `${count} worker process(es), G ${global} (${mode === 'pool' ? '--global-concurrency' : 'split by hand'})…\n`,
          );
          processes.push(
            await runProcesses({
              redisUrl,
              processes: count,
              global,
              creates: options.processCreates,
              latencyMs: options.latencyMs,
              newPrefix,
              clean: (prefix) => cleanPrefix(admin, prefix),
              mode,
            }),
          );
        }
      }
    }
    if (options.rssListings > 0) {
      process.stderr.write(`${options.rssListings} listings migrated with sync --work (peak RSS)…\n`);
      const big = await prepareWireScenario(options.rssListings, options.concurrency, 0);
      try {
        const prefix = newPrefix('rss');
        rss = await runCliWork(big, redisUrl, prefix).finally(() => cleanPrefix(admin, prefix));
      } finally {
        await removeWireScenario(big);
      }
    }
  } finally {
    await removeWireScenario(scenario);
    await admin.quit();
  }
  const info: WireInfo = {
    command: argv.length === 0 ? 'npm run bench:sync' : `node dist/bench/sync-cli.js ${argv.join(' ')}`,
    machine,
    date: new Date().toISOString(),
    creates: options.creates,
    concurrency: options.concurrency,
    latencyMs: options.latencyMs,
    rounds,
    processes,
    ...(rss === undefined ? {} : { rss: { listings: options.rssListings, run: rss } }),
  };
  process.stdout.write(`${printWire(info)}\n`);
  if (options.write) {
    const path = join(packageRoot(fileURLToPath(new URL('.', import.meta.url))), 'BENCHMARKS.md');
    await writeBenchmarkSection(path, 'bench:sync', wireSection(info));
    process.stdout.write(`wrote the bench:sync section of ${path}\n`);
  }
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bench:sync failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
  process.exitCode = 1;
});
