import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-wait';
const openBench = queueBenchPerTest();
/** A poll interval no test waits out: only the workers of this process can end these waits in time. */
const NEVER_MS = 120_000;

describe('waiting for a run whose workers run in this process', () => {
  it('ends as the last job completes here, not at the next poll of the counts', async () => {
    // 40 ms per request: the jobs are still running when the wait first reads the counts.
    const bench = await openBench({ chatbots: [BOT], faults: { latencyMs: 40 } });
    const workers = await bench.work();
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 24));
    const runId = await bench.enqueue(plan);
    const started = Date.now();
    const counts = await waitForRun(bench.store, runId, { pollMs: NEVER_MS, finishedHere: workers.finished });
    expect(counts).toMatchObject({ created: 24, totalJobs: 24, finishedJobs: 24 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(bench.sim.state.listings(BOT)).toHaveLength(24);
  });

  it('ends as the last job fails for good here', async () => {
    // The chatbot does not exist on the service: envelope Code 404, a final failure at the first attempt.
    const bench = await openBench({ chatbots: ['other'], faults: { latencyMs: 40 } });
    const workers = await bench.work();
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 12));
    const runId = await bench.enqueue(plan);
    const started = Date.now();
    const counts = await waitForRun(bench.store, runId, { pollMs: NEVER_MS, finishedHere: workers.finished });
    expect(counts).toMatchObject({ failed: 12, failedJobs: 12, finishedJobs: 12 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("is not ended by another run's jobs finishing here: it reads the counts when its own are done", async () => {
    const bench = await openBench({ chatbots: [BOT], faults: { latencyMs: 40 } });
    const workers = await bench.work();
    const other = await bench.enqueue(await bench.plan('bot-other', feedOf('bot-other', 0, 8)));
    const mine = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 8)));
    const [otherCounts, myCounts] = await Promise.all([
      waitForRun(bench.store, other, { pollMs: NEVER_MS, finishedHere: workers.finished }),
      waitForRun(bench.store, mine, { pollMs: NEVER_MS, finishedHere: workers.finished }),
    ]);
    expect(otherCounts.finishedJobs).toBe(8);
    expect(myCounts).toMatchObject({ created: 8, finishedJobs: 8, totalJobs: 8 });
  });
});
