/**
 * A run's enqueue under a stop (SIGINT/SIGTERM of `sync --work`). Once the stop is asked, the
 * rest of the run goes in at once (enqueue-pace.ts lets it), so that "the run goes on in the
 * queue" stays true; but only while Redis takes it: once no step completed for STOP_GRACE_MS (or
 * STOP_LIMIT_MS passed since the stop, inside the forced-exit bound), every step still waiting is
 * given up and the enqueue ends with INTERRUPTED, naming how many of the run's jobs are in.
 *
 * Why a bound: a step of the enqueue waits for Redis (the chunk's key index and job list in the
 * chatbot's slot, the jobs in the queue's), and during a Redis Cluster failover a command for
 * the lost master's slots waits for its replica, up to the connection's minute of retries; a
 * stop waited with it and ended in the forced exit. Nothing is lost by giving up: each chunk's
 * ids are listed under the run before its jobs are added (enqueue.ts addChunk), the run stays
 * `enqueuing`, and `runs resume` (or the reconciler, once the lease is stale) seals it with the
 * jobs that made it into the queue. A step given up still runs on its own, until the
 * connection's close fails it.
 */
import { ListingSyncError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

/** How long a stopped enqueue waits for its next step to complete before it gives up. */
export const STOP_GRACE_MS = 5000;

/** The most a stopped enqueue goes on adding the rest of its run, however well Redis answers. */
export const STOP_LIMIT_MS = 15_000;

export interface EnqueueStop {
  /** `step`, or a rejection (see `gaveUp`) once the stop's bounds passed. */
  within<T>(step: Promise<T>): Promise<T>;
  /** Whether `thrown` is what `within` rejects with when it gives up. */
  gaveUp(thrown: unknown): boolean;
  /** The enqueue is over: the stop no longer concerns it. */
  end(): void;
}

class GaveUp extends Error {}

const ignore = (): void => undefined;

/** The stop of one run's enqueue; without a signal it never gives up. `graceMs`, `limitMs`: STOP_GRACE_MS, STOP_LIMIT_MS. */
export function enqueueStop(signal: AbortSignal | undefined, graceMs = STOP_GRACE_MS, limitMs = STOP_LIMIT_MS): EnqueueStop {
  let expired = false;
  let idle: NodeJS.Timeout | undefined;
  let limit: NodeJS.Timeout | undefined;
  // Why each step waits on a promise of its own, not a race with one shared stop promise: a promise
  // that never settles keeps every value raced against it reachable, so a long enqueue held every
  // chunk's jobs until it ended (a 1,000,000-listing migration grew to 2.5 GB).
  const waiting = new Set<(reason: Error) => void>();
  const expire = (): void => {
    expired = true;
    clearTimeout(idle);
    clearTimeout(limit);
    for (const giveUp of waiting) giveUp(new GaveUp('the enqueue was stopped'));
    waiting.clear();
  };
  /** (Re)starts the wait for the next step, once the stop was asked. */
  const waitForProgress = (): void => {
    if (signal?.aborted !== true || expired) return;
    clearTimeout(idle);
    idle = setTimeout(expire, graceMs);
    idle.unref();
  };
  const start = (): void => {
    limit = setTimeout(expire, limitMs);
    limit.unref();
    waitForProgress();
  };
  if (signal?.aborted) start();
  else signal?.addEventListener('abort', start, { once: true });
  return {
    async within<T>(step: Promise<T>): Promise<T> {
      if (signal === undefined) return await step;
      step.catch(ignore);
      if (expired) throw new GaveUp('the enqueue was stopped');
      const done = await new Promise<T>((resolve, reject) => {
        waiting.add(reject);
        step.then(resolve, reject).finally(() => waiting.delete(reject));
      });
      waitForProgress();
      return done;
    },
    gaveUp: (thrown) => thrown instanceof GaveUp,
    end() {
      signal?.removeEventListener('abort', start);
      clearTimeout(idle);
      clearTimeout(limit);
    },
  };
}

/** The error a sync stopped while enqueuing ends with (exit 1), saying what is in and how to go on. */
export function interruptedWhileEnqueuing(runId: string, added: number, total: number): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.INTERRUPTED,
    `interrupted while enqueuing run ${runId}: at least ${added} of its ${total} jobs are in the queue (Redis did not ` +
      `take the rest in time after the stop); finish them with \`listing-sync runs resume ${runId} ` +
      `--work\`, and sync again for the rest`,
    { details: { runId, added, total } },
  );
}
