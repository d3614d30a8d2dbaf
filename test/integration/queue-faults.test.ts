import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedContent, feedOf, simContent, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-faults';
const openBench = queueBenchPerTest();

describe('a run under injected faults', () => {
  it('converges with zero duplicates and exact counts despite envelope failures, 503s, rate limits and commit-then-drop', async () => {
    const seeded = feedOf(BOT, 0, 40);
    const bench = await openBench({ chatbots: [BOT], listings: { [BOT]: seeded } }, 'faults');
    const feed = [...feedOf(BOT, 10, 25, (i) => ({ Description: `new text ${i}` })), ...feedOf(BOT, 25, 140)];
    const plan = await bench.plan(BOT, feed);
    expect([plan.creates.length, plan.updates.length, plan.deletes.length]).toEqual([100, 15, 10]);
    bench.sim.state.setFaults({ seed: 7, envelopeFailureRate: 0.2, http503Rate: 0.05, rateLimitRate: 0.05, commitThenDropRate: 0.03 });
    await bench.work({ concurrency: 8 });
    const runId = await bench.enqueue(plan);
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    bench.sim.state.setFaults({});

    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(counts).toMatchObject({ created: 100, updated: 15, deleted: 10, failed: 0, failedJobs: 0, finishedJobs: counts.totalJobs });
    expect(counts.retried).toBeGreaterThan(0);
    const run = await bench.store.runs.getRun(runId);
    expect(run?.status).toBe('done');
  }, 60_000);
});
