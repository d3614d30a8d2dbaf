import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedContent, feedOf, simContent, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-q';
const openBench = queueBenchPerTest();

describe('a plan executed by workers', () => {
  it('creates, updates and deletes until the simulator equals the feed, then a re-run writes nothing', async () => {
    const seeded = feedOf(BOT, 0, 30);
    const bench = await openBench({ chatbots: [BOT], listings: { [BOT]: seeded } });
    // Feed: 0..9 dropped (deletes), 10..19 changed (updates), 20..29 unchanged, 30..59 new (creates).
    const feed = [...feedOf(BOT, 10, 20, (i) => ({ SalePrice: 1000 + i, Description: `changed ${i}` })), ...feedOf(BOT, 20, 60)];
    const plan = await bench.plan(BOT, feed);
    expect([plan.creates.length, plan.updates.length, plan.deletes.length]).toEqual([30, 10, 10]);
    await bench.work();
    const runId = await bench.enqueue(plan);
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ created: 30, updated: 10, deleted: 10, failed: 0, failedJobs: 0, totalJobs: 41, finishedJobs: 41 });
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    expect((await bench.store.runs.getRun(runId))?.status).toBe('done');
    expect((await bench.store.ledger.readLedger(BOT, 'MLSNumber')).size).toBe(40);

    bench.sim.state.resetCounters();
    const again = await bench.plan(BOT, feed);
    expect(again.creates.length + again.updates.length + again.deletes.length).toBe(0);
    const second = await bench.enqueue(again);
    expect((await waitForRun(bench.store, second, { pollMs: 50 })).totalJobs).toBe(0);
    expect(bench.sim.state.writeCalls()).toBe(0);
  });

  it('enqueuing the same plan twice under one run adds nothing, and an older run never overwrites a newer one', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    const feed = feedOf(BOT, 0, 5);
    const plan = await bench.plan(BOT, feed);
    const olderRun = 'run-0000000001-aa';
    const newerRun = await bench.enqueue(plan);
    await bench.work();
    await waitForRun(bench.store, newerRun, { pollMs: 50 });
    bench.sim.state.resetCounters();
    // A stale job of an older run (a week-old failure retried from the dashboard) must not write.
    await bench.enqueue(plan, olderRun);
    const counts = await waitForRun(bench.store, olderRun, { pollMs: 50 });
    expect(counts).toMatchObject({ superseded: 5, created: 0 });
    expect(bench.sim.state.writeCalls()).toBe(0);
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
  });
});
