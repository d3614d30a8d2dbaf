/**
 * Fair turns (issue 29): a 4,000-listing migration is queued first, then five 40-listing syncs of
 * other chatbots, all as `sync` processes that only enqueue; then one or three `worker` processes
 * work the queue. The five are served in turn with the migration instead of after it: the last of
 * their writes reaches the service while the migration's writes are still within the first 25%
 * of its 4,000. Measured as an outcome (the service's own order of writes), never as time. And
 * every guarantee holds: every listing present, no create twice, every run's counts exact. On one
 * Redis and on a Redis Cluster.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { hasRedisClusterTools, startRedisCluster, type RedisClusterProcess } from '../helpers/redis-cluster.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';

const MIGRATION = 'bot-migration';
const SMALL = ['bot-s1', 'bot-s2', 'bot-s3', 'bot-s4', 'bot-s5'];
const MIGRATION_ROWS = 4000;
const SMALL_ROWS = 40;
const bench = useSyncBench('fair-turns');
let workers: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  workers = [];
});

interface RunShown {
  status: string;
  counts: { totalJobs: number; finishedJobs: number; created: number; failedJobs: number };
}

/** `sync` without --work: plans and enqueues the chatbot's feed, prints the run id, writes nothing. */
async function enqueueSync(env: Record<string, string>, chatbot: string, feed: string): Promise<string> {
  const run = await runCli(['sync', '--chatbot', chatbot, '--feed', feed, '--json'], env, 120_000);
  expect(run.code, run.stderr).toBe(0);
  return jsonOf<{ runId: string }>(run).runId;
}

/** Polls until every chatbot holds its rows (the deadline only ends a hung test; nothing is judged on time). */
async function untilWritten(sim: RunningSimulator, rows: ReadonlyMap<string, number>): Promise<void> {
  const deadline = Date.now() + 240_000;
  const done = (): boolean => [...rows].every(([chatbot, count]) => sim.state.listings(chatbot).length >= count);
  while (!done()) {
    if (Date.now() > deadline) throw new Error('the runs did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The run as `runs show` prints it once it ended (the last job's bookkeeping follows its write by a moment). */
async function finished(env: Record<string, string>, runId: string): Promise<RunShown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const shown = await runCli(['runs', 'show', runId, '--json'], env);
    const run = jsonOf<RunShown>(shown);
    if (!['enqueuing', 'running'].includes(run.status) || Date.now() > deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The migration's creates the service had received when it received the last create of the five. */
function migrationWritesBeforeLastSmall(sim: RunningSimulator): number {
  const creates = sim.state
    .calls()
    .filter((call) => call.endpoint === 'createListing' && call.status === 200)
    .map((call) => (call.body as { SerialNumber?: string }).SerialNumber ?? '');
  const lastSmall = creates.findLastIndex((chatbot) => SMALL.includes(chatbot));
  return creates.slice(0, lastSmall + 1).filter((chatbot) => chatbot === MIGRATION).length;
}

/** The scenario: the migration and the five queued by `sync`, then `processes` workers; judged on outcomes only. */
async function queuedThenWorked(processes: number, redis: Record<string, string> = {}): Promise<void> {
  const opened = await bench.open({ chatbots: [MIGRATION, ...SMALL], faults: { latencyMs: 3 } });
  const { sim, dir } = opened;
  const env = { ...opened.env, ...redis };
  const feedOf = (name: string, from: number, count: number): string =>
    writeNativeCsv(
      dir,
      `${name}.csv`,
      Array.from({ length: count }, (_, i) => nativeCsvRow(sampleListing(from + i))),
    );
  const runs = new Map<string, string>();
  runs.set(MIGRATION, await enqueueSync(env, MIGRATION, feedOf(MIGRATION, 0, MIGRATION_ROWS)));
  for (const [k, chatbot] of SMALL.entries())
    runs.set(chatbot, await enqueueSync(env, chatbot, feedOf(chatbot, 100_000 + k * 1000, SMALL_ROWS)));
  expect(sim.state.writeCalls(), 'plain sync only enqueues').toBe(0);

  for (let i = 0; i < processes; i += 1) workers.push(startCli(['worker', '--concurrency', '8'], env));
  await untilWritten(sim, new Map([[MIGRATION, MIGRATION_ROWS], ...SMALL.map((chatbot) => [chatbot, SMALL_ROWS] as const)]));

  // The five were served in turn: their last write came within the first quarter of the migration's.
  expect(migrationWritesBeforeLastSmall(sim)).toBeLessThanOrEqual(MIGRATION_ROWS / 4);
  for (const [chatbot, runId] of runs) {
    const rows = chatbot === MIGRATION ? MIGRATION_ROWS : SMALL_ROWS;
    expect(await finished(env, runId)).toMatchObject({
      status: 'done',
      counts: { totalJobs: rows, finishedJobs: rows, created: rows, failedJobs: 0 },
    });
    expect(sim.state.listings(chatbot)).toHaveLength(rows);
    expect(sim.state.duplicateCreates(chatbot)).toEqual([]);
    expect(sim.state.duplicates(chatbot, 'MLSNumber')).toEqual([]);
  }
}

describe('fair turns between chatbots in the writes queue', () => {
  for (const processes of [1, 3]) {
    it(`a migration queued first does not hold five small syncs behind it (${processes} worker process${processes > 1 ? 'es' : ''})`, async () => {
      await queuedThenWorked(processes);
    }, 300_000);
  }
});

describe.skipIf(!hasRedisClusterTools())('fair turns on a Redis Cluster', () => {
  let cluster: RedisClusterProcess | undefined;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('a migration queued first does not hold five small syncs behind it (3 worker processes)', async () => {
    // REDIS_URL where nothing listens: a command that used it instead of the cluster would fail.
    await queuedThenWorked(3, { REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: cluster?.nodes ?? '' });
  }, 300_000);
});
