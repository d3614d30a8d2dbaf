import { describe, expect, it } from 'vitest';
import { MIN_CARRIERS } from '../../jobs/support/listing-batches.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-wait';
const openBench = queueBenchPerTest();
/** A poll interval no test waits out: only the workers of this process can end these waits in time. */
const NEVER_MS = 120_000;

/**
 * Workers in this process and a run of `count` creates for `chatbot`, enqueued; 40 ms per
 * request, so its jobs are still running when a wait first reads the counts.
 */
async function runWithLocalWorkers(chatbots: string[], chatbot: string, count: number) {
  const bench = await openBench({ chatbots, faults: { latencyMs: 40 } });
  const workers = await bench.work();
  const runId = await bench.enqueue(await bench.plan(chatbot, feedOf(chatbot, 0, count)));
  return { bench, finishedHere: workers.finished, runId };
}

describe('waiting for a run whose workers run in this process', () => {
  it('ends as the last job completes here, not at the next poll of the counts', async () => {
    const { bench, finishedHere, runId } = await runWithLocalWorkers([BOT], BOT, 24);
    const started = Date.now();
    const counts = await waitForRun(bench.store, runId, { pollMs: NEVER_MS, finishedHere });
    expect(counts).toMatchObject({ created: 24, totalJobs: 24, finishedJobs: 24 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(bench.sim.state.listings(BOT)).toHaveLength(24);
  });

  it('ends as the last carrier completes here when the run travels several listings to a queue job', async () => {
    // 2 × MIN_CARRIERS writes or more: two listings to a write-listings job (jobs/support/listing-batches.ts).
    const count = 2 * MIN_CARRIERS;
    const { bench, finishedHere, runId } = await runWithLocalWorkers([BOT], BOT, count);
    expect(await bench.queues.writes.getJobCountByTypes('waiting', 'active', 'prioritized')).toBeLessThanOrEqual(count / 2);
    const started = Date.now();
    const counts = await waitForRun(bench.store, runId, { pollMs: NEVER_MS, finishedHere });
    expect(counts).toMatchObject({ created: count, totalJobs: count, finishedJobs: count });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(bench.sim.state.listings(BOT)).toHaveLength(count);
  });

  it('ends as the last job fails for good here', async () => {
    // The chatbot does not exist on the service: envelope Code 404, a final failure at the first attempt.
    const { bench, finishedHere, runId } = await runWithLocalWorkers(['other'], BOT, 12);
    const started = Date.now();
    const counts = await waitForRun(bench.store, runId, { pollMs: NEVER_MS, finishedHere });
    expect(counts).toMatchObject({ failed: 12, failedJobs: 12, finishedJobs: 12 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("is not ended by another run's jobs finishing here: it reads the counts when its own are done", async () => {
    const { bench, finishedHere, runId: other } = await runWithLocalWorkers([BOT], 'bot-other', 8);
    const mine = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 8)));
    const [otherCounts, myCounts] = await Promise.all([
      waitForRun(bench.store, other, { pollMs: NEVER_MS, finishedHere }),
      waitForRun(bench.store, mine, { pollMs: NEVER_MS, finishedHere }),
    ]);
    expect(otherCounts.finishedJobs).toBe(8);
    expect(myCounts).toMatchObject({ created: 8, finishedJobs: 8, totalJobs: 8 });
  });
});
