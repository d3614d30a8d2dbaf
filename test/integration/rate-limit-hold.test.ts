/**
 * The service's 429s under workers without a BullMQ limiter (no --rate): two worker sets on one
 * queue stand for two processes, each holding the queue through queue-hold.ts. With only two
 * attempts per job and half of all requests answered 429, every job still ends created:
 * a 429 puts its job back without using an attempt, and the run converges without duplicates.
 */
import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedContent, feedOf, simContent, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-held';
const openBench = queueBenchPerTest();

describe('429s without a limiter', () => {
  it('use no attempt: two attempts per job are enough under half of all requests answered 429, in two processes', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'held');
    const feed = feedOf(BOT, 0, 24);
    const plan = await bench.plan(BOT, feed);
    bench.sim.state.setFaults({ seed: 7, rateLimitRate: 0.5 });
    const sets = [await bench.work({ concurrency: 4, attempts: 2 }), await bench.work({ concurrency: 4, attempts: 2 })];
    for (const set of sets) expect(set.writes.opts.limiter).toBeUndefined();
    const runId = await bench.enqueue(plan);
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    bench.sim.state.setFaults({});

    expect(bench.sim.state.calls().filter((call) => call.status === 429).length, 'the service did rate-limit the run').toBeGreaterThan(5);
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect(counts).toMatchObject({ created: 24, failed: 0, failedJobs: 0, finishedJobs: counts.totalJobs });
  }, 120_000);
});
