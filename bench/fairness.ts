/**
 * `npm run bench:fairness` (after `npm run build`): does sharing the writes queue in turns
 * (src/queue/fair-turns.ts) cost throughput? Each round, against a simulator in its own process
 * (bench/fairness-sim.ts, 20 ms latency) and a fresh Redis prefix per measurement:
 * - bare: the bare keep-alive loop (bench/bare-loop.ts), the same number of creates, C in flight;
 * - alone: one chatbot's creates queued by `listing-sync sync` (no --work), then one
 *   `listing-sync worker --concurrency C` works them;
 * - shared: a migration queued first, then `others` small syncs of other chatbots, the same
 *   number of creates in all, then the same worker.
 * Writes/s are timed by the simulator (first create answered → last). The shared case also says
 * how far into the migration the others were done (its creates answered before their last one).
 * Writes the "bench:fairness" section of BENCHMARKS.md.
 *
 * Usage: node dist/bench/fairness.js [--rounds N] [--migration N] [--others N] [--other-listings N]
 *   [--concurrency N] [--latency MS] [--no-write]
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { sampleListing } from '../src/sim/sample-listings.js';
import { runCli, spawnCli, type Spawned } from './cli-child.js';
import { fairnessSection, printRound, type FairnessRound } from './fairness-report.js';
import { startFairnessSim, type FairnessSim } from './fairness-sim-child.js';
import { machineLine, writeSection } from './benchmarks-md.js';
import { cleanPrefix } from './sync-redis-stats.js';
import { writeFeedFile } from './sync-scenario.js';
import { writeWireFiles } from './wire-feed.js';

export interface FairnessOptions {
  rounds: number;
  migration: number;
  others: number;
  otherListings: number;
  concurrency: number;
  latencyMs: number;
  write: boolean;
}

function parseOptions(argv: readonly string[]): FairnessOptions {
  const options: FairnessOptions = {
    rounds: 2,
    migration: 4000,
    others: 5,
    otherListings: 40,
    concurrency: 16,
    latencyMs: 20,
    write: true,
  };
  const numeric = { '--rounds': 'rounds', '--migration': 'migration', '--others': 'others', '--other-listings': 'otherListings' } as const;
  const more = { '--concurrency': 'concurrency', '--latency': 'latencyMs' } as const;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--no-write') options.write = false;
    else if (arg in numeric || arg in more) {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a whole number ≥ 1`);
      options[(numeric as Record<string, keyof FairnessOptions>)[arg] ?? (more as Record<string, keyof FairnessOptions>)[arg] ?? 'rounds'] =
        value as never;
    } else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

const MIGRATION = 'bench-migration';
const otherName = (k: number): string => `bench-other-${k + 1}`;
const BARE_LOOP = join(fileURLToPath(new URL('.', import.meta.url)), 'bare-loop.js');

/** Writes/s between the first and the last create answered (n answers span n − 1 intervals). */
function perSecond(times: readonly number[]): number {
  if (times.length < 2) return 0;
  const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
  return (times.length - 1) / seconds;
}

/** A feed file of `count` listings of `chatbot`, numbered from `from`. */
async function feedFile(dir: string, chatbot: string, from: number, count: number): Promise<string> {
  const path = join(dir, `${chatbot}.json`);
  await writeFeedFile(
    path,
    Array.from({ length: count }, (_, i) => sampleListing(from + i, { SerialNumber: chatbot })),
  );
  return path;
}

function envOf(sim: FairnessSim, redisUrl: string, prefix: string): NodeJS.ProcessEnv {
  const { baseUrl, siteUrl, credentials } = sim.info;
  return {
    PATH: process.env.PATH,
    API_BASE_URL: baseUrl,
    SITE_URL: siteUrl,
    API_SECRET_KEY: credentials.secretKey,
    API_SESSION_KEY: credentials.sessionKey,
    PROJECT_AUTH_TOKEN: credentials.projectAuthToken,
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'info',
  };
}

async function workerStarted(worker: Spawned): Promise<void> {
  const end = Date.now() + 60_000;
  while (!worker.output().includes('workers started')) {
    if (worker.child.exitCode !== null) throw new Error(`worker exited ${worker.child.exitCode}:\n${worker.output()}`);
    if (Date.now() > end) throw new Error(`worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface QueuedCase {
  /** The chatbots and their feeds, in the order they are queued. */
  feeds: Array<{ chatbot: string; from: number; count: number }>;
}

interface CaseResult {
  writesPerSecond: number;
  creates: Array<[string, number]>;
  complete: boolean;
  duplicateCreates: number;
  maxInFlight: number;
}

/** Queues every feed with `sync` (enqueue only), in order, then one worker works them all. */
async function queuedThenWorked(options: FairnessOptions, admin: Redis, redisUrl: string, queued: QueuedCase): Promise<CaseResult> {
  const dir = join(tmpdir(), `bench-fairness-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  const sim = await startFairnessSim(
    options.latencyMs,
    queued.feeds.map((feed) => feed.chatbot),
  );
  const prefix = `bench-fair-${randomBytes(4).toString('hex')}`;
  const env = envOf(sim, redisUrl, prefix);
  let worker: Spawned | undefined;
  try {
    for (const feed of queued.feeds) {
      const path = await feedFile(dir, feed.chatbot, feed.from, feed.count);
      const run = await runCli(['sync', '--chatbot', feed.chatbot, '--feed', path, '--json'], { ...env, LOG_LEVEL: 'warn' });
      if (run.code !== 0) throw new Error(`sync ${feed.chatbot} exited ${run.code}:\n${run.stderr}`);
    }
    worker = spawnCli(['worker', '--concurrency', String(options.concurrency)], env);
    await workerStarted(worker);
    const total = queued.feeds.reduce((sum, feed) => sum + feed.count, 0);
    const end = Date.now() + 600_000;
    for (;;) {
      if ((await sim.count()) >= total) {
        const report = await sim.report();
        const complete = queued.feeds.every((feed) => report.listings[feed.chatbot] === feed.count);
        if (complete || Date.now() > end) {
          const times = report.creates.map(([, at]) => at);
          return {
            writesPerSecond: perSecond(times),
            creates: report.creates,
            complete,
            duplicateCreates: report.duplicateCreates,
            maxInFlight: report.maxInFlight,
          };
        }
      }
      if (Date.now() > end) throw new Error('the queued runs did not finish in 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    if (worker !== undefined && worker.child.exitCode === null) {
      const exited = new Promise((resolve) => worker?.child.once('exit', resolve));
      worker.child.kill('SIGTERM');
      await exited;
    }
    await sim.close();
    await cleanPrefix(admin, prefix);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The bare loop: `total` creates, C in flight, against a simulator process of its own. */
async function bare(options: FairnessOptions, total: number): Promise<number> {
  const sim = await startFairnessSim(options.latencyMs, [MIGRATION]);
  const bodiesPath = join(tmpdir(), `bench-fairness-bodies-${randomBytes(4).toString('hex')}.ndjson`);
  try {
    await writeWireFiles({ bodiesPath }, total, MIGRATION);
    const child = spawn(
      process.execPath,
      [BARE_LOOP, sim.info.baseUrl, sim.info.credentials.secretKey, bodiesPath, String(options.concurrency)],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`bare loop exited ${code}`);
    return perSecond((await sim.report()).creates.map(([, at]) => at));
  } finally {
    await sim.close();
    await rm(bodiesPath, { force: true });
  }
}

async function round(options: FairnessOptions, admin: Redis, redisUrl: string, index: number): Promise<FairnessRound> {
  const total = options.migration + options.others * options.otherListings;
  const load = loadavg()[0] ?? 0;
  const bareWrites = await bare(options, total);
  const alone = await queuedThenWorked(options, admin, redisUrl, { feeds: [{ chatbot: MIGRATION, from: 0, count: total }] });
  const others = Array.from({ length: options.others }, (_, k) => ({
    chatbot: otherName(k),
    from: 100_000 + k * options.otherListings,
    count: options.otherListings,
  }));
  const shared = await queuedThenWorked(options, admin, redisUrl, {
    feeds: [{ chatbot: MIGRATION, from: 0, count: options.migration }, ...others],
  });
  const order = shared.creates.map(([chatbot]) => chatbot);
  const lastOther = order.findLastIndex((chatbot) => chatbot !== MIGRATION);
  const migrationBefore = order.slice(0, lastOther + 1).filter((chatbot) => chatbot === MIGRATION).length;
  return {
    index,
    load,
    bare: bareWrites,
    alone: alone.writesPerSecond,
    shared: shared.writesPerSecond,
    migrationBeforeOthersDone: migrationBefore,
    ok: alone.complete && shared.complete && alone.duplicateCreates + shared.duplicateCreates === 0,
    maxInFlight: Math.max(alone.maxInFlight, shared.maxInFlight),
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const machine = machineLine();
  const startedAt = new Date().toISOString();
  const rounds: FairnessRound[] = [];
  try {
    for (let i = 1; i <= options.rounds; i += 1) {
      const result = await round(options, admin, redisUrl, i);
      printRound(result, options);
      rounds.push(result);
    }
  } finally {
    await admin.quit();
  }
  const command = `node dist/bench/fairness.js${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
  const section = fairnessSection(rounds, options, { command, machine, date: startedAt });
  process.stdout.write(`\n${section}\n`);
  if (options.write) await writeSection('bench:fairness', section);
}

main().catch((thrown: unknown) => {
  process.stderr.write(`bench:fairness failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
  process.exitCode = 1;
});
