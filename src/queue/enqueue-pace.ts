/**
 * The pace of a run's enqueue while the same command works the run (`sync --work`): the next
 * chunk is added only when the queue runs short, so the jobs go in a little ahead of the workers
 * instead of all in the first second.
 *
 * Why: adding a job costs CPU in this process (building it, handing it to the enqueue thread,
 * the thread encoding it) and in Redis, about as much as working it. Added all at once, a run's
 * jobs keep a small machine's cores busy while the workers' answers wait for one; paced, the
 * same work is spread over the run (figures: BENCHMARKS.md, "tried and dropped").
 *
 * The pace only ever holds a chunk back while the run's workers are fed: at least `ahead` of the
 * run's jobs are unfinished and not waiting out a backoff (added to the queue or on their way to
 * it: the enqueue thread may lag behind what it was handed). It lets
 * the rest of the run in at once, for good, as soon as pacing could cost anything: the command
 * is interrupted (so that "the run goes on in the queue" stays true), its --timeout passes, no
 * job of the run finished for STALL_MS (a paused queue, a service that answers nothing but
 * errors, Redis away), or a read of the queue fails.
 */
import type { Queue } from 'bullmq';
import { sleep } from '../net/abortable-sleep.js';
import { untilAborted } from '../net/bounded-wait.js';
import type { Store } from '../store/store.js';

/** Waits that keep the enqueue a little ahead of the workers (see enqueue.ts `addRunJobs`). */
export interface EnqueuePace {
  /** Resolves once the next chunk of run `runId` may be added: `added` of its `total` jobs are in. */
  beforeChunk(runId: string, added: number, total: number): Promise<void>;
}

/** A pace that also tells when the run's enqueue began. */
export interface PacedEnqueue extends EnqueuePace {
  /** When the run's first chunk was about to go in (epoch ms); undefined before. */
  startedAt(): number | undefined;
}

export interface PaceOptions {
  writes: Queue;
  store: Store;
  /** The command's stop (SIGINT/SIGTERM): the rest goes in at once. */
  signal?: AbortSignal;
  /**
   * The command's --timeout, counted from the run's first chunk (as its wait counts it, see
   * `startedAt`): once it passes, the rest goes in at once.
   */
  releaseAfterMs?: number;
  /** Told the run's finished jobs of `total` at each look (the command's progress bar). */
  onProgress?: (finished: number, total: number) => void;
  /** Fewest jobs kept waiting ahead of the workers (default MIN_AHEAD). */
  minAhead?: number;
}

/**
 * Fewest jobs kept ahead. Why 500: a process runs twice its request limit in jobs
 * (request-gate.ts), and the queue must never run dry between two looks of the pace.
 */
export const MIN_AHEAD = 500;

/** Seconds of work kept ahead at the rate the run's jobs finish (more than MIN_AHEAD for fast runs). */
const LEAD_SECONDS = 1;

/** How often the pace looks at the queue while it holds a chunk back. */
const LOOK_MS = 50;

/** No job of the run finished for this long: pacing stops for good (the workers are not what holds the run). */
export const STALL_MS = 1000;

/** A pace that never waits (a sync whose workers run elsewhere, or none). */
export const UNPACED: EnqueuePace = { beforeChunk: () => Promise.resolve() };

/** The pace of one command's enqueue (one run at a time). */
export function paceEnqueue(options: PaceOptions): PacedEnqueue {
  const minAhead = options.minAhead ?? MIN_AHEAD;
  let released = false;
  let startedAt: number | undefined;
  /** The first look: where the finish rate is measured from. */
  let first: { at: number; finished: number } | undefined;
  /** The last time the run's finished count moved. */
  let movedAt = 0;
  let lastFinished = -1;

  const mustRelease = (now: number): boolean =>
    released ||
    options.signal?.aborted === true ||
    (options.releaseAfterMs !== undefined && startedAt !== undefined && now - startedAt >= options.releaseAfterMs) ||
    (first !== undefined && now - movedAt >= STALL_MS);

  /** Jobs to keep ahead: MIN_AHEAD, or LEAD_SECONDS of work at the rate seen so far. */
  const aheadAt = (now: number, finished: number): number => {
    if (first === undefined || now <= first.at) return minAhead;
    const perSecond = ((finished - first.finished) * 1000) / (now - first.at);
    return Math.max(minAhead, Math.ceil(perSecond * LEAD_SECONDS));
  };

  /** Whether the workers have enough of the run to work on without the next chunk. */
  async function fedWithout(runId: string, added: number, total: number): Promise<boolean> {
    const [state, delayed] = await Promise.all([options.store.runs.runState(runId), options.writes.getDelayedCount()]);
    const now = Date.now();
    const finished = state.finishedJobs;
    options.onProgress?.(finished, total);
    first ??= { at: now, finished };
    if (finished !== lastFinished) {
      lastFinished = finished;
      movedAt = now;
    }
    // Why the delayed jobs are left out: a job waiting out its backoff is not work for the workers.
    return added - finished - delayed >= aheadAt(now, finished);
  }

  // Why a look ends at the stop: a read waiting for Redis (a Cluster failover) must not hold the rest back.
  const lookedAt = (look: Promise<boolean>): Promise<boolean> => (options.signal ? untilAborted(look, options.signal) : look);

  return {
    startedAt: () => startedAt,
    async beforeChunk(runId, added, total) {
      startedAt ??= Date.now();
      if (added < minAhead) return;
      try {
        while (!mustRelease(Date.now()) && (await lookedAt(fedWithout(runId, added, total)))) await sleep(LOOK_MS, options.signal);
      } catch {
        // Why silent: the enqueue's own next step meets the same Redis and reports it (a stop: see enqueue-stop.ts).
        released = true;
      }
      if (mustRelease(Date.now())) released = true;
    },
  };
}
