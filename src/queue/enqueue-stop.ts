/**
 * A run's enqueue under a stop (SIGINT/SIGTERM of `sync --work`). Once the stop is asked, the
 * rest of the run goes in at once (enqueue-pace.ts lets it), so that "the run goes on in the
 * queue" stays true; but only for STOP_GRACE_MS. After that, every step still waiting is given
 * up and the enqueue ends with INTERRUPTED, naming how many of the run's jobs are in.
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

/** How long a stopped enqueue goes on adding the rest of its run before it gives up. */
export const STOP_GRACE_MS = 5000;

export interface EnqueueStop {
  /** `step`, or a rejection (see `gaveUp`) once STOP_GRACE_MS passed since the stop. */
  within<T>(step: Promise<T>): Promise<T>;
  /** Whether `thrown` is what `within` rejects with when it gives up. */
  gaveUp(thrown: unknown): boolean;
  /** The enqueue is over: the stop no longer concerns it. */
  end(): void;
}

class GaveUp extends Error {}

const ignore = (): void => undefined;

/** The stop of one run's enqueue; without a signal it never gives up. */
export function enqueueStop(signal: AbortSignal | undefined, graceMs = STOP_GRACE_MS): EnqueueStop {
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  let giveUp: (reason: Error) => void = ignore;
  const given = new Promise<never>((_, reject) => (giveUp = reject));
  given.catch(ignore);
  const start = (): void => {
    timer = setTimeout(() => {
      expired = true;
      giveUp(new GaveUp('the enqueue was stopped'));
    }, graceMs);
    timer.unref();
  };
  if (signal?.aborted) start();
  else signal?.addEventListener('abort', start, { once: true });
  return {
    async within(step) {
      if (signal === undefined) return await step;
      step.catch(ignore);
      if (expired) throw new GaveUp('the enqueue was stopped');
      return await Promise.race([step, given]);
    },
    gaveUp: (thrown) => thrown instanceof GaveUp,
    end() {
      signal?.removeEventListener('abort', start);
      clearTimeout(timer);
    },
  };
}

/** The error a sync stopped while enqueuing ends with (exit 1), saying what is in and how to go on. */
export function interruptedWhileEnqueuing(runId: string, added: number, total: number): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.INTERRUPTED,
    `interrupted while enqueuing run ${runId}: at least ${added} of its ${total} jobs are in the queue (Redis did not take ` +
      `the rest within ${STOP_GRACE_MS / 1000} s of the stop); finish them with \`listing-sync runs resume ${runId} ` +
      `--work\`, and sync again for the rest`,
    { details: { runId, added, total } },
  );
}
