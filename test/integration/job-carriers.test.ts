import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { JobDeps } from '../../jobs/support/job-context.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { reconcileRun } from '../../src/queue/reconcile-run.js';
import { cancelRun } from '../../src/queue/cancel-run.js';
import { listingsPerJob } from '../../jobs/support/listing-batches.js';
import { findKeyJobs, listFailedJobs, retryJobs } from '../../src/queue/failed-jobs.js';
import { recordFinalFailure } from '../../src/queue/processor.js';
import { feedContent, feedOf, simContent, queueBenchPerTest, type QueueBench } from '../helpers/queue.js';

const BOT = 'bot-carry';
const openBench = queueBenchPerTest();

/** What a worker's processor gets, for recording a failure the way a worker does. */
function jobDeps(bench: QueueBench): JobDeps {
  return { api: bench.api, retryTable: DEFAULT_RETRY_TABLE, store: bench.store, logger: bench.logger, now: () => Date.now() };
}

/** The queue jobs of `runId` that carry listings, and how many listings the run lists under carriers. */
async function carriersOf(bench: QueueBench, runId: string): Promise<{ carriers: string[]; carried: number }> {
  const listed = await bench.store.runs.listedJobs(runId);
  const carriers = new Set(listed.flatMap((job) => (job.carrier === undefined ? [] : [job.carrier])));
  return { carriers: [...carriers], carried: listed.filter((job) => job.carrier !== undefined).length };
}

describe('listings carried several to a queue job (write-listings)', () => {
  it('a large run travels in carriers and converges exactly: one write per listing, exact counts, no duplicate', async () => {
    const seeded = feedOf(BOT, 0, 200);
    const bench = await openBench({ chatbots: [BOT], listings: { [BOT]: seeded } }, 'carry');
    const feed = [...feedOf(BOT, 0, 150, (i) => ({ Description: `changed ${i}` })), ...feedOf(BOT, 200, 1250)];
    const plan = await bench.plan(BOT, feed);
    expect([plan.creates.length, plan.updates.length, plan.deletes.length]).toEqual([1050, 150, 50]);
    expect(listingsPerJob(1200)).toBe(8);
    const runId = await bench.enqueue(plan);
    const { carriers, carried } = await carriersOf(bench, runId);
    expect(carried).toBe(1200);
    // 1,050 creates and 150 updates, eight to a carrier, creates and updates never mixed: 132 + 19.
    expect(carriers.length).toBe(151);
    // `jobs find KEY` shows the listing's own job, waiting in its carrier.
    const key = feed[1000]?.MLSNumber ?? '';
    const [waiting] = await findKeyJobs(bench.queues.writes, bench.store, key, BOT);
    expect(waiting).toMatchObject({
      jobId: expect.stringMatching(/^create\.bot-carry\.MLSNumber\./) as unknown,
      name: 'create-listing',
      state: 'waiting',
      runId,
    });
    await bench.work({ concurrency: 8 });
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(await findKeyJobs(bench.queues.writes, bench.store, key, BOT)).toMatchObject([{ jobId: waiting?.jobId, state: 'completed' }]);

    expect(counts).toMatchObject({
      created: 1050,
      updated: 150,
      deleted: 50,
      failed: 0,
      failedJobs: 0,
      totalJobs: 1201,
      finishedJobs: 1201,
    });
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    const calls = bench.sim.state.callCounts();
    expect(calls.createListing + calls.updateListing).toBe(1200);
    expect(bench.sim.state.maxInFlight()).toBeLessThanOrEqual(8);
    expect((await bench.store.runs.getRun(runId))?.status).toBe('done');
  }, 120_000);

  it('under injected faults, failed listings leave their carrier for jobs of their own, and the run still converges exactly', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'carry-faults');
    const feed = feedOf(BOT, 0, 600);
    const plan = await bench.plan(BOT, feed);
    const runId = await bench.enqueue(plan);
    expect((await carriersOf(bench, runId)).carriers.length).toBe(75);
    bench.sim.state.setFaults({ seed: 11, envelopeFailureRate: 0.1, http503Rate: 0.03, rateLimitRate: 0.03, commitThenDropRate: 0.03 });
    await bench.work({ concurrency: 8 });
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    bench.sim.state.setFaults({});

    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(counts).toMatchObject({ created: 600, failed: 0, failedJobs: 0, totalJobs: 600, finishedJobs: 600 });
    expect(counts.retried).toBeGreaterThan(0);
  }, 120_000);

  it('a carrier started again (its worker died mid-way) moves its listings to jobs of their own that look their keys up: no duplicate', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'carry-crash');
    const feed = feedOf(BOT, 0, 600);
    const plan = await bench.plan(BOT, feed);
    const runId = await bench.enqueue(plan);
    const { carriers } = await carriersOf(bench, runId);
    // As if a worker had started every carrier, created the first half of the listings and died
    // before recording them: each carrier is started again, and half its listings exist.
    for (const id of carriers) await bench.redis.hincrby(bench.queues.writes.toKey(id), 'ats', 1);
    for (const listing of feed.slice(0, 300)) bench.sim.state.create(listing);
    await bench.work({ concurrency: 8 });
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });

    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(counts).toMatchObject({ created: 600, failed: 0, totalJobs: 600, finishedJobs: 600 });
    expect(bench.sim.state.callCounts().createListing).toBe(300);
  }, 120_000);

  it('a carrier removed from the queue by hand: the reconciler records each listing it carried as lost, and the run ends', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'carry-lost');
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 600));
    const runId = await bench.enqueue(plan);
    const [gone] = (await carriersOf(bench, runId)).carriers;
    expect(await bench.queues.writes.remove(gone ?? '')).toBe(1);
    await bench.work({ concurrency: 8 });
    await expect.poll(async () => (await bench.store.runs.runState(runId)).finishedJobs, { timeout: 60_000, interval: 100 }).toBe(592);
    const result = await reconcileRun(bench.store, bench.queues.writes, runId, Date.now() + 60_000);
    expect(result).toMatchObject({ recorded: 8, remaining: 0, status: 'failed' });
    expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({
      created: 592,
      failed: 8,
      failedJobs: 8,
      finishedJobs: 600,
    });
  }, 120_000);

  it('cancelling a run removes its waiting carriers (counted in listings): nothing of it is written afterwards', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'carry-cancel');
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 600));
    const runId = await bench.enqueue(plan);
    const result = await cancelRun(bench.store, bench.queues.writes, runId, Date.now());
    expect(result).toMatchObject({ status: 'cancelled', removed: 600, running: 0 });
    await bench.work({ concurrency: 8 });
    expect(await bench.queues.writes.getJobCounts('wait', 'prioritized', 'delayed', 'active')).toEqual({
      wait: 0,
      prioritized: 0,
      delayed: 0,
      active: 0,
    });
    expect(bench.sim.state.writeCalls()).toBe(0);
  }, 60_000);
  it('a carrier that failed for good records its listings as failed, and `jobs retry` of it writes them', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'carry-retry');
    const feed = feedOf(BOT, 0, 600);
    const runId = await bench.enqueue(await bench.plan(BOT, feed));
    // As BullMQ fails a job that stalled too often, without the processor: then the worker records it.
    const connection = bench.redis.duplicate();
    const taker = new Worker(bench.queues.writes.name, undefined, {
      connection,
      prefix: bench.queues.writes.opts.prefix,
      autorun: false,
    });
    const job = (await taker.getNextJob('taker')) as Job | undefined;
    if (job === undefined) throw new Error('no carrier to take');
    expect(job.name).toBe('write-listings');
    const failing = job.id;
    await job.moveToFailed(new UnrecoverableError('job stalled more than allowable limit'), 'taker');
    await taker.close();
    await connection.quit();
    await recordFinalFailure(job, { code: 'STALLED', message: 'job stalled more than allowable limit' }, jobDeps(bench));
    await bench.work({ concurrency: 8 });
    expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({
      created: 592,
      failed: 8,
      failedJobs: 8,
      finishedJobs: 600,
    });
    expect((await bench.store.failedKeys.failedKeys(BOT, 'MLSNumber')).size).toBe(8);

    // `jobs failed --run` shows the carrier (with its listings' keys); `jobs retry --run` re-queues it.
    const [row] = await listFailedJobs(bench.queues.writes, bench.store, runId);
    expect(row).toMatchObject({ jobId: failing, name: 'write-listings' });
    expect(row?.key.split(',')).toHaveLength(8);
    expect(await retryJobs(bench.queues.writes, bench.store, { runId })).toMatchObject({ retried: [failing] });
    await expect
      .poll(async () => (await waitForRun(bench.store, runId, { pollMs: 50 })).created, { timeout: 60_000, interval: 100 })
      .toBe(600);
    expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({ failed: 0, failedJobs: 0, finishedJobs: 600 });
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
  }, 120_000);
});
