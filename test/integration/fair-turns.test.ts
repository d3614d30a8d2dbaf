/**
 * The turns of write jobs (src/queue/fair-turns.ts) against a real Redis: a run's jobs take
 * consecutive turns from the queue's clock, a run queued behind another interleaves with it, a
 * run whose jobs have all been taken starts again at the clock, bulk edits take one turn for all,
 * turns stop at BullMQ's highest priority, and a job retried after a failure keeps its turn.
 */
import { describe, expect, it } from 'vitest';
import { EDIT_CHATBOT as EDIT_CHATBOT_JOBS } from '../../jobs/edit-chatbot.js';
import type { JobSpec } from '../../jobs/support/job-spec.js';
import { enqueuePerChatbot } from '../../src/queue/enqueue.js';
import { FIRST_TURN, LAST_TURN, runTurns } from '../../src/queue/fair-turns.js';
import { findKeyJobs } from '../../src/queue/failed-jobs.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { enqueueAsSync, feedOf, nextRunId, queueBenchPerTest, TEST_JOB_SETTINGS, waitingJobs, type QueueBench } from '../helpers/queue.js';

const openBench = queueBenchPerTest();
const ONE_PER_JOB = { ...TEST_JOB_SETTINGS, listingsPerJob: 1 };

/** Each job's priority, by id. */
async function turnsOf(bench: QueueBench, ids: readonly string[]): Promise<number[]> {
  const jobs = await Promise.all(ids.map((id) => bench.queues.writes.getJob(id)));
  return jobs.map((job) => job?.opts.priority ?? 0);
}

/** The job ids of `chatbot`'s run, in the order they were enqueued. */
async function jobIdsOf(bench: QueueBench, runId: string): Promise<string[]> {
  return await bench.store.runs.jobsOfRun(runId);
}

const specs = (label: string, count: number): JobSpec[] =>
  Array.from({ length: count }, (_, i) => ({ name: 'create-listing', id: `${label}-${i}`, data: {}, touches: [] }));

const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);

describe('fair turns in the writes queue', () => {
  it("a run queued behind another takes turns from the queue's clock, one for one with the first run's waiting jobs", async () => {
    const bench = await openBench({ chatbots: ['bot-big', 'bot-small'] }, 'turns');
    // 250 jobs in three chunks (50, 100, 100): consecutive turns across chunks. (A job per listing:
    // how carriers take turns, a turn per listing, is enqueue-thread.test.ts's.)
    const big = await enqueueAsSync(bench, await bench.plan('bot-big', feedOf('bot-big', 0, 250)), { jobs: ONE_PER_JOB });
    const bigIds = await jobIdsOf(bench, big);
    expect(await turnsOf(bench, bigIds)).toEqual(range(FIRST_TURN, 250));

    // Workers took the first 100 (removed here): the clock is the lowest turn still waiting.
    for (const id of bigIds.slice(0, 100)) await bench.queues.writes.remove(id);
    const small = await enqueueAsSync(bench, await bench.plan('bot-small', feedOf('bot-small', 1000, 1040)));
    expect(await turnsOf(bench, await jobIdsOf(bench, small))).toEqual(range(FIRST_TURN + 100, 40));
    // Every job is still counted as waiting.
    expect(await waitingJobs(bench.queues.writes)).toBe(150 + 40);

    // Worked: the small run's 40 jobs are done while the big run's 150 are served alongside (turn by
    // turn, equal turns in the order added), and `jobs find` says a job waiting its turn is waiting.
    const [waiting] = await findKeyJobs(bench.queues.writes, bench.store, 'ML100249');
    expect(waiting?.state).toBe('waiting');
    await bench.work({ concurrency: 1 });
    expect(await waitForRun(bench.store, small, { pollMs: 50 })).toMatchObject({ created: 40, failed: 0 });
    // (The big run itself never ends: the 100 jobs removed above stand for jobs taken, and were never written.)
    while (bench.sim.state.listings('bot-big').length < 150) await new Promise((resolve) => setTimeout(resolve, 20));
    const order = bench.sim.state
      .calls()
      .filter((call) => call.endpoint === 'createListing')
      .map((call) => (call.body as { SerialNumber?: string }).SerialNumber);
    // At most two jobs a worker prefetches run ahead of the turns (concurrency 1 takes 2 jobs).
    expect(order.slice(0, 82).filter((chatbot) => chatbot === 'bot-small').length).toBeGreaterThanOrEqual(39);
    expect(bench.sim.state.duplicateCreates('bot-small')).toEqual([]);
    expect(bench.sim.state.listings('bot-small')).toHaveLength(40);
  });

  it('a run whose jobs were all taken starts again at the clock; turns stop at the highest priority; bulk edits take one turn', async () => {
    const bench = await openBench({ chatbots: ['bot-a'] }, 'turns-clock');
    const { writes } = bench.queues;
    const turns = runTurns(bench.redis, writes);
    const add = async (part: JobSpec[]): Promise<number[]> => {
      const taken = await turns.take(part);
      await writes.addBulk(taken.map((spec) => ({ name: spec.name, data: spec.data, opts: { jobId: spec.id, priority: spec.priority } })));
      return taken.map((spec) => spec.priority ?? 0);
    };
    expect(await add(specs('a', 3))).toEqual([1, 2, 3]);
    expect(await add(specs('b', 2))).toEqual([4, 5]);
    // A chunk whose turns were taken but that is not in the queue yet (the enqueue thread adds it
    // later): the run's next chunk follows it, not the clock.
    const lagging = runTurns(bench.redis, writes);
    expect((await lagging.take(specs('x', 2))).map((spec) => spec.priority)).toEqual([1, 2]);
    expect((await lagging.take(specs('y', 2))).map((spec) => spec.priority)).toEqual([3, 4]);
    // The run's jobs all taken (out of the set, records kept), another run's job far ahead: it starts again at the clock.
    const prioritized = writes.toKey('prioritized');
    for (const id of ['a-0', 'a-1', 'a-2', 'b-0', 'b-1']) await bench.redis.zrem(prioritized, id);
    await writes.add('create-listing', {}, { jobId: 'other', priority: 700 });
    expect(await add(specs('c', 2))).toEqual([700, 701]);
    // Nothing waits any more: the clock is back at the first turn, and so is the run.
    for (const id of ['other', 'c-0', 'c-1']) await bench.redis.zrem(prioritized, id);
    expect(await add(specs('e', 2))).toEqual([FIRST_TURN, FIRST_TURN + 1]);
    for (const id of ['e-0', 'e-1']) await writes.remove(id);
    await writes.obliterate({ force: true });
    // Near the last turn: the rest keep FIFO order at it.
    await writes.add('create-listing', {}, { jobId: 'late', priority: LAST_TURN - 1 });
    expect(await runTurns(bench.redis, writes).take(specs('d', 3))).toMatchObject([
      { priority: LAST_TURN - 1 },
      { priority: LAST_TURN },
      { priority: LAST_TURN },
    ]);
    await writes.remove('late');

    // A bulk edit: one job per chatbot, each that chatbot's first turn; the queue empty, the clock is 1.
    const runId = nextRunId();
    const edits = await enqueuePerChatbot(
      EDIT_CHATBOT_JOBS,
      ['bot-x', 'bot-y', 'bot-z'].map((serialNumber) => ({ serialNumber, WelcomeMessage: 'hi' })),
      { id: runId, chatbot: 'bot-x', trigger: 'cli', forced: false, status: 'enqueuing', startedAt: Date.now() },
      { writes, store: bench.store, jobs: TEST_JOB_SETTINGS },
    );
    expect(await turnsOf(bench, edits.jobIds)).toEqual([FIRST_TURN, FIRST_TURN, FIRST_TURN]);
  });

  it('a job retried after a failure keeps its turn', async () => {
    const bench = await openBench({ chatbots: ['bot-r'], faults: { envelopeFailureRate: 1, endpoints: ['createListing'] } }, 'turns-retry');
    const runId = await enqueueAsSync(bench, await bench.plan('bot-r', feedOf('bot-r', 0, 3)));
    const workers = await bench.work({ concurrency: 1, attempts: 2 });
    expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({ failed: 3 });
    await workers.close();
    const ids = await jobIdsOf(bench, runId);
    for (const id of ids) await (await bench.queues.writes.getJob(id))?.retry('failed');
    expect(await waitingJobs(bench.queues.writes)).toBe(3);
    expect(await turnsOf(bench, ids)).toEqual([1, 2, 3]);
    const members = await bench.redis.zrange(bench.queues.writes.toKey('prioritized'), '0', '-1');
    expect([...members].sort()).toEqual([...ids].sort());
  });
});
