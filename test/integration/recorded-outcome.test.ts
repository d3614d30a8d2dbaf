/**
 * What the Redis watch asks when BullMQ calls a job gone ("Missing key"), to tell a job that
 * another start of it finished (its lock was lost, nothing is lost) from a job really gone:
 * RunStore.recordedOutcome finds its outcome by the run its id names, and finishedElsewhere
 * counts it finished only while its queue is intact.
 */
import { describe, expect, it } from 'vitest';
import { finishedElsewhere } from '../../src/queue/finished-elsewhere.js';
import { feedOf, queueBenchPerTest } from '../helpers/queue.js';

const BOT = 'bot-recorded';
const openBench = queueBenchPerTest();

describe('the outcome recorded for one job', () => {
  it("is the job's outcome once it finished, and nothing for a job of the run not finished or an id naming no run", async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'recorded');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 3)));
    const [first] = await bench.store.runs.jobsOfRun(runId);
    if (first === undefined) throw new Error('the run has no jobs');
    expect(await bench.store.runs.recordedOutcome(first)).toBeUndefined();

    await bench.work();
    await expect.poll(async () => (await bench.store.runs.getRun(runId))?.status, { timeout: 60_000 }).toBe('done');
    expect(await bench.store.runs.recordedOutcome(first)).toBe('created');
    expect(await bench.store.runs.recordedOutcome(first.replace(/\.[^.]+\.run-/, '.not-planned.run-'))).toBeUndefined();
    expect(await bench.store.runs.recordedOutcome('sync-run.bot-recorded.nightly')).toBeUndefined();
  });

  it('is finished elsewhere only while its queue is intact: with the queue deleted the job counts as gone', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'recorded');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 2)));
    const [first] = await bench.store.runs.jobsOfRun(runId);
    if (first === undefined) throw new Error('the run has no jobs');
    await bench.work();
    await expect.poll(async () => (await bench.store.runs.getRun(runId))?.status, { timeout: 60_000 }).toBe('done');
    const lookUp = finishedElsewhere(bench.queues.writes, bench.redis, bench.store);
    expect(await lookUp(first)).toBe('created');

    const queueKeys = await bench.redis.keys(`${bench.queues.writes.toKey('')}*`);
    expect(queueKeys.length).toBeGreaterThan(0);
    await bench.redis.del(...queueKeys);
    expect(await lookUp(first)).toBeUndefined();
  });
  it('a carrier is finished elsewhere once each listing it carried has its outcome or a job of its own', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'recorded');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 200)));
    const listed = await bench.store.runs.listedJobs(runId);
    const carrier = listed[0]?.carrier;
    if (carrier === undefined) throw new Error('the run has no carriers');
    const lookUp = finishedElsewhere(bench.queues.writes, bench.redis, bench.store);
    expect(await lookUp(carrier)).toBeUndefined();
    await bench.work();
    await expect.poll(async () => (await bench.store.runs.getRun(runId))?.status, { timeout: 60_000 }).toBe('done');
    // Its record removed, as another start would once it completed it.
    expect(await bench.queues.writes.remove(carrier)).toBe(1);
    expect(await lookUp(carrier)).toBe('carried');
    expect(await lookUp(carrier.replace(/\.run-/, '_2b9.run-'))).toBeUndefined();
  });
});
