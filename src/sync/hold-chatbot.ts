/**
 * A sync holds its chatbot from before it reads anything until its jobs are in the queue (then
 * the jobs hold it until the run ends). Dry runs hold nothing: they change nothing.
 */
import type { Logger } from '../runtime/logger.js';
import { settledWithin } from '../net/bounded-wait.js';

/** The lease operations a sync needs (wired to src/queue/chatbot-lease.ts and the lease store). */
export interface SyncLease {
  /** Takes the chatbot for `runId`, waiting up to `waitMs`; throws CHATBOT_BUSY when it cannot. */
  acquire(chatbot: string, runId: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** A sign of life while the sync plans and enqueues. */
  beat(chatbot: string, runId: string): Promise<void>;
  /** Releases the chatbot unless the run's jobs now hold it. */
  release(chatbot: string, runId: string): Promise<void>;
  /** Says this process stopped working on the run: the lease is stale at once (a resume takes it without waiting). */
  markIdle(chatbot: string, runId: string): Promise<void>;
}

/**
 * How long a stopped sync tries to leave its lease. Why a bound: during a Redis Cluster failover
 * the chatbot's slot answers only once its replica took over; a stop must not wait for that, and
 * the lease then goes stale by itself.
 */
export const STOP_RELEASE_MS = 3000;

/** How often a planning sync beats: well inside the reconciler's 30 s staleness. */
export const PLANNING_BEAT_MS = 5000;

/** Runs `body` holding `chatbot` for `runId`, beating while it runs and releasing after. */
export async function holdingChatbot<T>(
  lease: SyncLease,
  hold: { chatbot: string; runId: string; waitMs: number; signal?: AbortSignal; logger: Logger },
  body: () => Promise<T>,
): Promise<T> {
  const { chatbot, runId, logger } = hold;
  await lease.acquire(chatbot, runId, hold.waitMs, hold.signal);
  const beat = setInterval(() => {
    lease
      .beat(chatbot, runId)
      .catch((err: unknown) =>
        logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'lease heartbeat failed; retrying at the next beat'),
      );
  }, PLANNING_BEAT_MS);
  beat.unref();
  try {
    return await body();
  } finally {
    clearInterval(beat);
    if (hold.signal?.aborted === true) await settledWithin(leaveStopped(lease, chatbot, runId), STOP_RELEASE_MS);
    else
      await lease
        .release(chatbot, runId)
        .catch((err: unknown) =>
          logger.warn(
            { err: err instanceof Error ? err.message : String(err), chatbot, runId },
            'could not release the chatbot; it is freed once the lease goes stale',
          ),
        );
  }
}

/**
 * A stopped sync's lease: marked idle (a run stopped while enqueuing is resumed or sealed at
 * once), then released unless the run's jobs hold it. Why silent: the stop's own line says what
 * to do next, and an unreachable Redis is the watch's to report.
 */
async function leaveStopped(lease: SyncLease, chatbot: string, runId: string): Promise<void> {
  await lease.markIdle(chatbot, runId);
  await lease.release(chatbot, runId);
}
