/**
 * `npm run bench:sync` (after `npm run build`): the built CLI against the simulator (20 ms
 * latency), with every ratio against a baseline measured in the same round:
 * - writes phase of `sync --work` ÷ the bare keep-alive loop (target ≥ 0.95);
 * - CPU per listing ÷ the bare loop's per request (target ≤ 3.0), beside the BullMQ floor
 *   (bullmq-floor.ts: the same creates as one BullMQ job each, nothing else) of the same round;
 * - the whole command, start to exit, ÷ ideal (creates ÷ (concurrency ÷ latency); target ≥ 0.85);
 * - Redis round trips per job (whole command, every connection of the CLI process);
 * - service calls ÷ minimal (1.00) and the CLI's peak RSS;
 * - writes/s for 1, 2 and 4 `listing-sync worker` processes under --global-concurrency 16 and 64
 *   (the CLI only enqueues), beside G split by hand (--concurrency G ÷ N, no pool) in the same run,
 *   and a 100k-listing migration's peak RSS;
 * - the cluster figure: 3 `worker` processes on a 3-master Redis Cluster of the bench's own
 *   (redis-server and redis-cli on PATH) sharing --global-concurrency 12, ÷ (G ÷ latency);
 * - with --scale-listings N (off by default: 1,000,000 takes about half an hour), an N-listing
 *   migration at 0 ms: its time, peak RSS and CPU per listing, in a section of its own ("bench:sync
 *   scale"); `--scale-only N` measures that alone (`npm run bench:scale`: 1,000,000);
 * - the CPU split (sync-cpu-split.ts): one more sync --work of --long-creates listings (default
 *   4 × --creates), for the CPU each further listing costs and the CPU a command pays once.
 * The simulator runs in a process of its own for every measurement (wire-sim.ts).
 * Writes the "bench:sync" section of BENCHMARKS.md (not with --scale-only). Needs Redis at REDIS_URL (default
 * redis://127.0.0.1:6379); everything it writes there is under fresh prefixes, removed at the end.
 *
 * Usage: node dist/bench/sync-cli.js [--creates N] [--rounds N] [--concurrency N] [--latency MS]
 *   [--processes 1,2,4] [--globals 16,64] [--process-creates N] [--rss-listings N|0]
 *   [--cluster-processes N|0] [--cluster-global G] [--cluster-ports P1,P2,P3] [--scale-listings N] [--scale-only N]
 *   [--long-creates N|0] [--no-write]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { machineLine, writeSection } from './benchmarks-md.js';
import { cleanPrefix } from './sync-redis-stats.js';
import { runClusterFigure, type ClusterFigure } from './sync-cluster.js';
import { runProcesses, type ProcessesResult } from './sync-processes.js';
import { printWire, scaleBenchSection, wireSection, type WireInfo, type WireRound } from './sync-wire-report.js';
import { scaleLine } from './sync-wire-figures.js';
import {
  prepareWireScenario,
  removeWireScenario,
  runBareLoop,
  runBullmqFloor,
  runCliPlanOnly,
  runCliWork,
  type CliWorkResult,
} from './sync-wire.js';

interface Options {
  creates: number;
  rounds: number;
  concurrency: number;
  latencyMs: number;
  processes: number[];
  globals: number[];
  processCreates: number;
  rssListings: number;
  /** Worker processes of the cluster figure (0: not measured). */
  clusterProcesses: number;
  clusterGlobal: number;
  /** The cluster's master ports (empty: free ones). */
  clusterPorts: number[];
  /** Listings of the scale migration (0: not measured). */
  scaleListings: number;
  /** Only the scale migration: no rounds, worker processes, cluster, RSS or CPU split, and only its section written. */
  scaleOnly: boolean;
  /** Listings of the CPU split's larger run (0: not measured; default 4 × creates). */
  longCreates: number | undefined;
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
    clusterProcesses: 3,
    clusterGlobal: 12,
    clusterPorts: [],
    scaleListings: 0,
    scaleOnly: false,
    longCreates: undefined,
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
    else if (arg === '--cluster-processes') options.clusterProcesses = number(0);
    else if (arg === '--cluster-global') options.clusterGlobal = number();
    else if (arg === '--cluster-ports') options.clusterPorts = list();
    else if (arg === '--scale-listings') options.scaleListings = number(0);
    else if (arg === '--scale-only') {
      options.scaleListings = number(1);
      Object.assign(options, { scaleOnly: true, rounds: 0, processes: [], clusterProcesses: 0, rssListings: 0, longCreates: 0 });
    } else if (arg === '--long-creates') options.longCreates = number(0);
    else if (arg === '--no-write') options.write = false;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

const newPrefix = (what: string): string => `bench-${what}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/**
 * `sync --work` of `listings` new listings at `latencyMs` (0 for the migrations: memory and CPU,
 * not pace), in-flight sampling off; the feed is written as a stream and removed after.
 */
async function migration(listings: number, concurrency: number, latencyMs: number, redisUrl: string, admin: Redis): Promise<CliWorkResult> {
  const big = await prepareWireScenario(listings, concurrency, latencyMs, { bodies: false });
  const prefix = newPrefix('migration');
  try {
    return await runCliWork(big, redisUrl, prefix, {}, { sample: false });
  } finally {
    await cleanPrefix(admin, prefix);
    await removeWireScenario(big);
  }
}

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
  let cluster: ClusterFigure | undefined;
  let scale: CliWorkResult | undefined;
  let long: CliWorkResult | undefined;
  const longCreates = options.longCreates ?? options.creates * 4;
  try {
    for (let round = 1; round <= options.rounds; round += 1) {
      const load = loadavg()[0] ?? 0;
      process.stderr.write(`round ${round}/${options.rounds}: bare keep-alive loop…\n`);
      const bare = await runBareLoop(scenario);
      process.stderr.write(`round ${round}/${options.rounds}: BullMQ floor…\n`);
      const floorPrefix = newPrefix('floor');
      const floor = await runBullmqFloor(scenario, redisUrl, floorPrefix).finally(() => cleanPrefix(admin, floorPrefix));
      process.stderr.write(`round ${round}/${options.rounds}: sync --work…\n`);
      const prefix = newPrefix('wire');
      // A prefix of its own, not under the sync's: cleanPrefix removes `${prefix}:*` only.
      const planPrefix = `${prefix}-plan`;
      try {
        const cli = await runCliWork(scenario, redisUrl, prefix);
        process.stderr.write(`round ${round}/${options.rounds}: sync --dry-run (the plan alone)…\n`);
        rounds.push({ load, bare, floor, cli, planCpuSeconds: (await runCliPlanOnly(scenario, redisUrl, planPrefix)).cpuSeconds });
      } finally {
        await cleanPrefix(admin, prefix);
        await cleanPrefix(admin, planPrefix);
      }
    }
    if (longCreates > options.creates) {
      process.stderr.write(`${longCreates} listings with sync --work (CPU split)…\n`);
      long = await migration(longCreates, options.concurrency, options.latencyMs, redisUrl, admin);
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
    if (options.clusterProcesses > 0) {
      process.stderr.write(
        `${options.clusterProcesses} worker processes on a 3-master Redis Cluster, --global-concurrency ${options.clusterGlobal}…\n`,
      );
      cluster = await runClusterFigure({
        redisUrl,
        clean: (prefix) => cleanPrefix(admin, prefix),
        processes: options.clusterProcesses,
        global: options.clusterGlobal,
        creates: options.processCreates,
        latencyMs: options.latencyMs,
        ports: options.clusterPorts,
        newPrefix,
      });
    }
    if (options.rssListings > 0) {
      process.stderr.write(`${options.rssListings} listings migrated with sync --work (peak RSS)…\n`);
      rss = await migration(options.rssListings, options.concurrency, 0, redisUrl, admin);
    }
    if (options.scaleListings > 0) {
      process.stderr.write(`${options.scaleListings} listings migrated with sync --work (scale figure)…\n`);
      scale = await migration(options.scaleListings, options.concurrency, 0, redisUrl, admin);
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
    ...(cluster === undefined ? {} : { cluster: cluster.cluster, clusterAlone: cluster.alone }),
    ...(long === undefined ? {} : { long: { listings: longCreates, run: long } }),
    ...(scale === undefined ? {} : { scale: { listings: options.scaleListings, run: scale } }),
  };
  process.stdout.write(`${options.scaleOnly && info.scale ? scaleLine(info.scale) : printWire(info)}\n`);
  if (options.write) {
    if (!options.scaleOnly) {
      await writeSection('bench:sync', wireSection(info));
      process.stdout.write('wrote the bench:sync section of BENCHMARKS.md\n');
    }
    if (info.scale) {
      await writeSection('bench:sync scale', scaleBenchSection({ ...info, scale: info.scale }));
      process.stdout.write('wrote the bench:sync scale section of BENCHMARKS.md\n');
    }
  }
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bench:sync failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
  process.exitCode = 1;
});
