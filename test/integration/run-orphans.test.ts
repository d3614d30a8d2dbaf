/**
 * Jobs whose record survives while no list of the queue holds them (the queue's lists deleted as an
 * enqueue wrote new records behind the deletion: seen under load in sync-work-queue-lost): nothing
 * would ever take them, so the reconciler records them as lost and the run ends, like jobs whose
 * record is gone. Jobs waiting in a paused queue are waiting, not lost, and are left alone.
 */
import { describe, expect, it } from 'vitest';
import { reconcileRun } from '../../src/queue/reconcile-run.js';
import { inspectRun } from '../../src/queue/run-inspection.js';
import { feedOf, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-orphans';
const JOBS = 12;
const ORPHANED = 5;
const openBench = queueBenchPerTest();
const INSPECT_NOW = { staleLeaseMs: 30_000, inspectAfterMs: 0, stuckAfterMs: 3_600_000 };

describe('orphaned jobs of a run', () => {
  it('records as failed the jobs no list holds, leaves the queued ones, and the run ends once those are worked', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'orphans');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, JOBS)));
    const jobIds = await bench.store.runs.jobsOfRun(runId);
    const orphaned = jobIds.slice(0, ORPHANED);
    // Their records stay; the set they wait their turn in (src/queue/fair-turns.ts) no longer names them.
    for (const jobId of orphaned) expect(await bench.redis.zrem(bench.queues.writes.toKey('prioritized'), jobId)).toBe(1);
    for (const jobId of orphaned) expect(await bench.queues.writes.getJobState(jobId)).toBe('unknown');

    const inspection = await inspectRun(bench.store, bench.queues.writes, runId);
    expect(inspection.missing.sort()).toEqual([...orphaned].sort());
    const result = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now(), INSPECT_NOW);
    expect(result).toMatchObject({ recorded: ORPHANED, remaining: JOBS - ORPHANED, status: 'running' });

    await bench.work();
    await expect.poll(async () => (await bench.store.runs.getRun(runId))?.status, { timeout: 60_000 }).toBe('failed');
    expect((await bench.store.runs.getRun(runId))?.counts).toMatchObject({ created: JOBS - ORPHANED, failedJobs: ORPHANED });
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('leaves alone the jobs of a paused queue: they wait, they are not lost', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'orphans');
    await bench.queues.writes.pause();
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, JOBS)));
    const inspection = await inspectRun(bench.store, bench.queues.writes, runId);
    expect(inspection).toMatchObject({ missing: [], failedUnrecorded: [], active: 0 });
    expect(inspection.unfinished).toHaveLength(JOBS);
    const result = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now(), INSPECT_NOW);
    expect(result).toMatchObject({ recorded: 0, remaining: JOBS, status: 'running' });
  });
});
