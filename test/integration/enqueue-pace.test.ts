/**
 * The pace of a run's enqueue (src/queue/enqueue-pace.ts) against a real Redis and the
 * simulator: it keeps the queue only a little ahead of the workers, the run still converges with
 * every job, and it lets the rest in at once when the command is interrupted, its timeout passes
 * or nothing works on the run.
 */
import { listingsPerJob } from '../../jobs/support/listing-batches.js';
import { describe, expect, it } from 'vitest';
import { paceEnqueue, STALL_MS, type PaceOptions } from '../../src/queue/enqueue-pace.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { enqueueAsSync, feedOf, queueBenchPerTest, type QueueBench, waitingJobs } from '../helpers/queue.js';

const BOT = 'bot-pace';
const JOBS = 1500;
/** Few ahead, so that a small run shows the pace. */
const MIN_AHEAD = 150;
const openBench = queueBenchPerTest();

/** Samples the writes queue's waiting jobs every 10 ms until `stop`; returns the most seen. */
function sampleWaiting(bench: QueueBench): { stop(): Promise<number> } {
  let most = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      most = Math.max(most, await waitingJobs(bench.queues.writes));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return most;
    },
  };
}

/** A bench whose chatbot exists, with `JOBS` creates planned for it. */
async function planned(latencyMs: number) {
  const bench = await openBench({ chatbots: [BOT], faults: { latencyMs } });
  return { bench, plan: await bench.plan(BOT, feedOf(BOT, 0, JOBS)) };
}

type Planned = Awaited<ReturnType<typeof planned>>['plan'];

/** Enqueues `plan` as a sync does, paced with `extra`; resolves with the run id and how long the enqueue took. */
async function pacedEnqueue(bench: QueueBench, plan: Planned, extra: Partial<PaceOptions> = {}) {
  const pace = paceEnqueue({ writes: bench.queues.writes, store: bench.store, minAhead: MIN_AHEAD, ...extra });
  const started = Date.now();
  const runId = await enqueueAsSync(bench, plan, { pace });
  return { runId, ms: Date.now() - started, pace };
}

describe('the pace of a run enqueued while its workers run in this process', () => {
  it('keeps the queue a little ahead of the workers, and the run converges with every job', async () => {
    const { bench, plan } = await planned(20);
    // 8 requests in flight at 20 ms: ~350 jobs/s, so the run takes ~4 s and the pace holds most of it.
    const workers = await bench.work({ concurrency: 8 });
    const progress: number[] = [];
    const sampler = sampleWaiting(bench);
    const { runId, ms } = await pacedEnqueue(bench, plan, { onProgress: (finished) => progress.push(finished) });
    const mostWaiting = await sampler.stop();
    // Unpaced, all 1,500 jobs are in the queue within a fraction of a second.
    expect(ms).toBeGreaterThan(1500);
    // Ahead: at most a second of work at the run's rate (~350), one chunk and a look's lag.
    expect(mostWaiting).toBeLessThan(700);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeGreaterThan(0);

    const counts = await waitForRun(bench.store, runId, { finishedHere: workers.finished, pollMs: 100 });
    expect(counts).toMatchObject({ created: JOBS, totalJobs: JOBS, finishedJobs: JOBS, failed: 0 });
    expect(bench.sim.state.listings(BOT)).toHaveLength(JOBS);
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('lets the rest in at once when the command is interrupted: the run is sealed with every job', async () => {
    const { bench, plan } = await planned(20);
    await bench.work({ concurrency: 4 });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 500);
    const { runId, ms } = await pacedEnqueue(bench, plan, { signal: stop.signal });
    // 4 in flight at 20 ms would take ~8 s for the whole run; the enqueue ends soon after the abort.
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(3000);
    expect(await bench.store.runs.runState(runId)).toMatchObject({ status: 'running', totalJobs: JOBS });
  });

  it('lets the rest in once its --timeout passed, counted from the first chunk', async () => {
    const { bench, plan } = await planned(20);
    await bench.work({ concurrency: 4 });
    const { runId, ms, pace } = await pacedEnqueue(bench, plan, { releaseAfterMs: 700 });
    expect(ms).toBeGreaterThanOrEqual(650);
    expect(ms).toBeLessThan(3000);
    // Counted from the first chunk, which goes in as the enqueue starts.
    expect(pace.startedAt()).toBeLessThanOrEqual(Date.now() - ms + 200);
    expect((await bench.store.runs.runState(runId)).totalJobs).toBe(JOBS);
  });

  it('lets the rest in once no job of the run finished for a while: a run nobody works is enqueued whole', async () => {
    const { bench, plan } = await planned(0);
    // No workers: nothing finishes (as with a paused queue or a service that only fails).
    const { runId, ms } = await pacedEnqueue(bench, plan);
    expect(ms).toBeGreaterThanOrEqual(STALL_MS - 50);
    expect(ms).toBeLessThan(STALL_MS + 2000);
    expect(await bench.store.runs.runState(runId)).toMatchObject({ status: 'running', totalJobs: JOBS });
    // Every listing in, carried several to a queue job (jobs/support/listing-batches.ts).
    expect(await waitingJobs(bench.queues.writes)).toBe(Math.ceil(JOBS / listingsPerJob(JOBS)));
  });
});
