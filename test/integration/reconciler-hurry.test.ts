/**
 * The reconciler told that jobs are gone from the queue (BullMQ's "Missing key for job", through
 * the Redis watch) hurries: a run whose jobs were removed has them recorded as failed within the
 * hurried inspection delay, not after an interval; the jobs still queued are left alone; and a
 * run that stays stalled is read at most once per inspection delay, however often the hurried
 * passes come (a big run is not read in full every second). A Redis of the test's own, so that
 * its command counts are this test's alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RECONCILE } from '../../src/queue/reconcile-run.js';
import { startReconciler } from '../../src/queue/reconciler.js';
import { inspectRun } from '../../src/queue/run-inspection.js';
import { feedOf, openQueueBench, type QueueBench } from '../helpers/queue.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';

const BOT = 'bot-hurry';
const JOBS = 40;
const REMOVED = 10;
const HURRY = { forMs: 60_000, passMs: 100, inspectAfterMs: 500 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls of `command` the server has answered so far (INFO commandstats). */
async function calls(bench: QueueBench, command: string): Promise<number> {
  const info = await bench.redis.info('commandstats');
  return Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
}

describe.skipIf(!hasRedisServer())('reconciler hurry', () => {
  let redis: RedisProcess;
  let bench: QueueBench;
  let passed = false;

  beforeAll(async () => {
    redis = await startRedisProcess();
    bench = await openQueueBench(redis.url, { chatbots: [BOT] }, 'hurry');
  });

  afterAll(async () => {
    await bench?.close(passed);
    await redis?.close();
  });

  it('records removed jobs within the hurried delay, leaves queued ones, and reads a stalled run at most once per delay', async () => {
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, JOBS)));
    const jobIds = await bench.store.runs.jobsOfRun(runId);
    expect(jobIds).toHaveLength(JOBS);
    for (const jobId of jobIds.slice(0, REMOVED)) expect(await bench.queues.writes.remove(jobId)).toBe(1);

    // The interval rule alone would not look for 30 s (the run made progress just now).
    const reconciler = startReconciler({
      store: bench.store,
      writes: bench.queues.writes,
      logger: bench.logger,
      intervalMs: 600_000,
      reconcile: DEFAULT_RECONCILE,
      hurry: HURRY,
    });
    try {
      await sleep(1500);
      expect((await bench.store.runs.jobOutcomes(runId)).size, 'nothing recorded before the hurry').toBe(0);

      // Only the hurry can record them within this test: the interval is ten minutes.
      reconciler.hurry();
      const told = Date.now();
      while ((await bench.store.runs.jobOutcomes(runId)).size < REMOVED && Date.now() - told < 20_000) await sleep(20);
      const outcomes = await bench.store.runs.jobOutcomes(runId);
      expect([...outcomes.keys()].sort()).toEqual(jobIds.slice(0, REMOVED).sort());
      expect(new Set(outcomes.values())).toEqual(new Set(['failed']));

      // Still hurrying, passes every 100 ms: the stalled run (30 jobs queued, no worker) is read
      // once per 500 ms at most (~4 reads of 30 jobs in 2 s), not at every pass (~15 reads).
      const before = await calls(bench, 'hmget');
      await sleep(2000);
      const reads = (await calls(bench, 'hmget')) - before;
      expect(reads, 'HMGETs in 2 s of hurried passes').toBeLessThanOrEqual(6 * (JOBS - REMOVED));
      expect(reads, 'the run was read at all').toBeGreaterThanOrEqual(JOBS - REMOVED);

      const inspection = await inspectRun(bench.store, bench.queues.writes, runId);
      expect(inspection.missing, 'the queued jobs are left alone').toEqual([]);
      expect(inspection.unfinished).toHaveLength(JOBS - REMOVED);
      expect((await bench.store.runs.runState(runId)).status).toBe('running');
    } finally {
      await reconciler.stop();
    }
    passed = true;
  }, 60_000);
});
