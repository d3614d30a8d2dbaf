/**
 * The enqueue thread of `sync --work` (src/queue/threaded-enqueue.ts) against a real Redis: what
 * it adds is exactly what an enqueue in-thread adds, the chunks after the first wait while it
 * loads, it runs at a lower CPU priority, a thread whose Redis never answers leaves the work to this thread (after a wait), and a chunk it cannot add fails the enqueue with the reason.
 * The CLI starts it only for a large run (src/queue/large-run-thread.ts): a smaller run never starts it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, inject, it } from 'vitest';
import { CREATE_LISTING } from '../../jobs/create-listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { CLOSE_GRACE_MS, startEnqueueThread, type EnqueueThread } from '../../src/queue/threaded-enqueue.js';
import { largeRunThread } from '../../src/queue/large-run-thread.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { startTcpGate } from '../helpers/tcp-gate.js';
import {
  enqueueAsSync,
  feedContent,
  feedOf,
  queueBenchPerTest,
  simContent,
  TEST_JOB_SETTINGS,
  type QueueBench,
  waitingJobs,
} from '../helpers/queue.js';

const BOT = 'bot-thread';
const openBench = queueBenchPerTest();

function threadFor(bench: QueueBench, redisUrl: string, readyWaitMs?: number): EnqueueThread {
  const jobs = TEST_JOB_SETTINGS;
  return startEnqueueThread(
    { redis: { url: redisUrl, prefix: bench.prefix }, jobs, seal: bench.seal },
    { store: bench.store, writes: bench.queues.writes, jobs },
    readyWaitMs === undefined ? {} : { readyWaitMs },
  );
}

/** The nice value of every thread of this process (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('the enqueue thread', () => {
  it('adds every chunk once connected: the same jobs, key index and sealed run as in-thread, and the workers converge with no duplicate', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    const thread = threadFor(bench, inject('redisUrl'));
    try {
      await thread.ready;
      const feed = feedOf(BOT, 0, 1234);
      const plan = await bench.plan(BOT, feed);
      const runId = await enqueueAsSync(bench, plan, { sink: thread.sink });
      // Sealed only once the thread acknowledged every chunk: all jobs are in when enqueue returns.
      // 1,234 listings, eight to a queue job (jobs/support/listing-batches.ts): 154 carriers of 8 and one of 2.
      expect(await waitingJobs(bench.queues.writes)).toBe(155);
      expect(await bench.store.runs.getRun(runId)).toMatchObject({ status: 'running', counts: { totalJobs: 1234 } });
      expect((await bench.store.keyIndex.touches(feed[1233]?.MLSNumber ?? '', BOT)).map((touch) => touch.runId)).toEqual([runId]);
      // A turn per listing, in order (src/queue/fair-turns.ts), though the thread adds each chunk after its turns were taken.
      const carriers = [...new Set((await bench.store.runs.listedJobs(runId)).map((job) => job.carrier ?? job.id))];
      const jobs = await Promise.all(carriers.map((id) => bench.queues.writes.getJob(id)));
      expect(jobs.map((job) => job?.opts.priority)).toEqual(Array.from({ length: 155 }, (_, i) => 1 + 8 * i));

      await bench.work();
      expect(await waitForRun(bench.store, runId, { pollMs: 50 })).toMatchObject({ created: 1234, failed: 0, finishedJobs: 1234 });
      expect(simContent(bench, BOT)).toEqual(feedContent(feed));
      expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    } finally {
      await thread.close();
    }
  });

  it('while it loads, only the first chunk is added in this thread: the next ones wait for it', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    // The thread's Redis sits behind a gate that holds its connection until the first chunk was
    // added here: the thread is loading when the enqueue begins, however fast this machine is.
    const gate = await startTcpGate(inject('redisUrl'));
    let addedHere = 0;
    let readyAtFirstChunk: boolean | undefined;
    let ready = false;
    const writes = bench.queues.writes;
    const countingWrites = new Proxy(writes, {
      get(target, property, receiver) {
        if (property !== 'addBulk') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<typeof writes.addBulk>) => {
          readyAtFirstChunk ??= ready;
          addedHere += 1;
          const added = await target.addBulk(...args);
          gate.open();
          return added;
        };
      },
    });
    // A wait far longer than the thread can need once its connection passes: the next chunks wait for it, never time out.
    const thread = startEnqueueThread(
      { redis: { url: gate.url, prefix: bench.prefix }, jobs: TEST_JOB_SETTINGS, seal: bench.seal },
      { store: bench.store, writes: countingWrites, jobs: TEST_JOB_SETTINGS },
      { readyWaitMs: 120_000 },
    );
    void thread.ready.then(() => (ready = true));
    try {
      const feed = feedOf(BOT, 0, 1234);
      const runId = await enqueueAsSync(bench, await bench.plan(BOT, feed), { sink: thread.sink });
      expect(readyAtFirstChunk).toBe(false);
      expect(addedHere).toBe(1);
      expect(ready).toBe(true);
      expect(await waitingJobs(bench.queues.writes)).toBe(155);
      expect(await bench.store.runs.getRun(runId)).toMatchObject({ status: 'running', counts: { totalJobs: 1234 } });
    } finally {
      await thread.close();
      await gate.close();
    }
  });

  it.runIf(process.platform === 'linux')('runs ten nice levels below the thread that started it, and leaves it at its own', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    const mine = getPriority();
    const lowered = Math.min(19, mine + 10);
    const before = threadNiceValues();
    const thread = threadFor(bench, inject('redisUrl'));
    try {
      await thread.ready;
      const during = threadNiceValues();
      expect(during.filter((nice) => nice === lowered).length).toBe(before.filter((nice) => nice === lowered).length + 1);
      expect(getPriority()).toBe(mine);
    } finally {
      await thread.close();
    }
  });

  it('while its own Redis never answers, every chunk is added in this thread and close does not wait for it', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    const thread = threadFor(bench, 'redis://127.0.0.1:1');
    let closed = false;
    try {
      const feed = feedOf(BOT, 0, 300);
      const runId = await enqueueAsSync(bench, await bench.plan(BOT, feed), { sink: thread.sink });
      // 300 listings, four to a queue job (jobs/support/listing-batches.ts).
      expect(await waitingJobs(bench.queues.writes)).toBe(75);
      expect(await bench.store.runs.getRun(runId)).toMatchObject({ status: 'running', counts: { totalJobs: 300 } });
      const closing = Date.now();
      await thread.close();
      closed = true;
      // It did not sit out the grace a connected thread gets to finish its chunks.
      expect(Date.now() - closing).toBeLessThan(CLOSE_GRACE_MS);
    } finally {
      if (!closed) await thread.close();
    }
  });

  it('a chunk it cannot add fails the enqueue with the reason, and it takes nothing more', async () => {
    const bench = await openBench({ chatbots: [BOT] });
    const thread = threadFor(bench, inject('redisUrl'));
    try {
      await thread.ready;
      const data = { runId: 'run-1', chatbot: BOT, keyType: 'MLSNumber' as const, key: 'k', hash: 'h', listing: sampleListing(0) };
      const bad = { name: CREATE_LISTING, id: 'not:a:bullmq:id', data, touches: ['k'] };
      await thread.sink.add([bad], 'run-1', BOT, Date.now());
      await expect(thread.sink.settle()).rejects.toThrow(/Custom Id cannot contain :/);
      await expect(thread.sink.add([{ ...bad, id: 'fine-id', touches: [] }], 'run-1', BOT, Date.now())).rejects.toThrow(/Custom Id/);
      expect(await waitingJobs(bench.queues.writes)).toBe(0);
    } finally {
      await thread.close();
    }
  });

  describe('started only for a large run (large-run-thread.ts)', () => {
    it('a run below the size adds its chunks here and starts no thread; a run of the size starts it; both converge with no duplicate', async () => {
      const bench = await openBench({ chatbots: [BOT] });
      const here = { store: bench.store, writes: bench.queues.writes, jobs: TEST_JOB_SETTINGS };
      const gate = largeRunThread(() => threadFor(bench, inject('redisUrl'), 0), here, 300);
      try {
        const small = feedOf(BOT, 0, 299);
        const smallRun = await enqueueAsSync(bench, await bench.plan(BOT, small), { sink: gate.sink });
        expect(gate.started()).toBe(false);
        expect(await bench.store.runs.getRun(smallRun)).toMatchObject({ counts: { totalJobs: 299 } });
        await bench.work();
        expect(await waitForRun(bench.store, smallRun, { pollMs: 50 })).toMatchObject({ created: 299, failed: 0 });

        const large = feedOf(BOT, 0, 600);
        const largeRun = await enqueueAsSync(bench, await bench.plan(BOT, large), { sink: gate.sink });
        expect(gate.started()).toBe(true);
        expect(await bench.store.runs.getRun(largeRun)).toMatchObject({ counts: { totalJobs: 301 } });
        expect(await waitForRun(bench.store, largeRun, { pollMs: 50 })).toMatchObject({ created: 301, failed: 0 });
        expect(simContent(bench, BOT)).toEqual(feedContent(large));
        expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
      } finally {
        await gate.close();
      }
    });
  });
});
