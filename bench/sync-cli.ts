/**
 * `npm run bench:sync`: the built CLI against the simulator, every ratio against a baseline of the same round
 * (targets in sync-report.ts); worker processes and a Redis Cluster (redis-server, redis-cli on PATH); a migration's
 * peak RSS; the CPU split. `--scale-only N` measures an N-listing migration alone (`npm run bench:scale`).
 * Usage: node dist/bench/sync-cli.js [--kebab-name VALUE of any option below, e.g. --rss-listings 0] [--no-write]
 */
import { loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { head, publish } from './benchmarks-md.js';
import { cleanPrefix, newPrefix, parseOptions, REDIS_URL } from './kit.js';
import { runClusterFigure, runProcesses } from './sync-processes.js';
import { scaleBlocks, wireBlocks, type Migration, type WireInfo } from './sync-report.js';
import { prepareWireScenario, removeWireScenario, runBareLoop, runBullmqFloor, runCliPlanOnly, runCliWork } from './sync-wire.js';

const argv = process.argv.slice(2);
// longCreates NaN: 4 × --creates.
const roundDefaults = { creates: 6000, rounds: 3, concurrency: 16, latency: 20, longCreates: Number.NaN, write: true };
const processDefaults = { processes: [1, 2, 4], globals: [16, 64], processCreates: 6000, clusterProcesses: 3, clusterGlobal: 12 };
const options = parseOptions(argv, { ...roundDefaults, ...processDefaults, rssListings: 100_000, scaleListings: 0, scaleOnly: 0 });
// --scale-only: that migration and nothing else.
const scaleOnly = { rounds: 0, processes: [], clusterProcesses: 0, rssListings: 0, longCreates: 0 };
if (options.scaleOnly > 0) Object.assign(options, scaleOnly, { scaleListings: options.scaleOnly });
const { creates, concurrency, latency: latencyMs } = options;
const longCreates = Number.isNaN(options.longCreates) ? creates * 4 : options.longCreates;
const say = (text: string): boolean => process.stderr.write(`${text}…\n`);
const admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
const at = head('bench:sync', argv);

/** `sync --work` of `listings` new listings at `latency` ms (0 for the migrations: memory and CPU, not pace), in-flight sampling off. */
async function migration(listings: number, latency: number): Promise<Migration> {
  const big = await prepareWireScenario(listings, concurrency, latency, { bodies: false });
  const prefix = newPrefix('migration');
  try {
    return { listings, run: await runCliWork(big, REDIS_URL, prefix, {}, { sample: false }) };
  } finally {
    await cleanPrefix(admin, prefix);
    await removeWireScenario(big);
  }
}

const info: WireInfo = { creates, concurrency, latencyMs, rounds: [], processes: [] };
let scale: Migration | undefined;
const scenario = await prepareWireScenario(creates, concurrency, latencyMs);
try {
  for (let round = 1; round <= options.rounds; round += 1) {
    const load = loadavg()[0] ?? 0;
    say(`round ${round}/${options.rounds}: bare keep-alive loop, BullMQ floor, sync --work, sync --dry-run`);
    const bare = await runBareLoop(scenario);
    const [floorPrefix, prefix] = [newPrefix('floor'), newPrefix('wire')];
    // A prefix of its own, not under the sync's: cleanPrefix removes `${prefix}:*` only.
    const planPrefix = `${prefix}-plan`;
    try {
      const floor = await runBullmqFloor(scenario, REDIS_URL, floorPrefix);
      const cli = await runCliWork(scenario, REDIS_URL, prefix);
      info.rounds.push({ load, bare, floor, cli, planCpuSeconds: (await runCliPlanOnly(scenario, REDIS_URL, planPrefix)).cpuSeconds });
    } finally {
      for (const p of [floorPrefix, prefix, planPrefix]) await cleanPrefix(admin, p);
    }
  }
  if (longCreates > creates) {
    say(`${longCreates} listings with sync --work (CPU split)`);
    info.long = await migration(longCreates, latencyMs);
  }
  for (const global of options.globals)
    for (const processes of options.processes)
      for (const mode of ['pool', 'split'] as const) {
        say(`${processes} worker process(es), G ${global} (${mode === 'pool' ? '--global-concurrency' : 'split by hand'})`);
        const creates = options.processCreates;
        info.processes.push(await runProcesses({ redisUrl: REDIS_URL, processes, global, creates, latencyMs, mode }));
      }
  if (options.clusterProcesses > 0) {
    say(`${options.clusterProcesses} worker processes on a 3-master Redis Cluster, --global-concurrency ${options.clusterGlobal}`);
    const [processes, global, creates] = [options.clusterProcesses, options.clusterGlobal, options.processCreates];
    info.cluster = await runClusterFigure({ redisUrl: REDIS_URL, processes, global, creates, latencyMs });
  }
  if (options.rssListings > 0) {
    say(`${options.rssListings} listings migrated with sync --work (peak RSS)`);
    info.rss = await migration(options.rssListings, 0);
  }
  if (options.scaleListings > 0) {
    say(`${options.scaleListings} listings migrated with sync --work (scale figure)`);
    scale = await migration(options.scaleListings, 0);
  }
} finally {
  await removeWireScenario(scenario);
  await admin.quit();
}
if (options.scaleOnly === 0) await publish('bench:sync', at, options.write, wireBlocks(info));
if (scale) await publish('bench:sync scale', at, options.write, scaleBlocks(scale, concurrency));
