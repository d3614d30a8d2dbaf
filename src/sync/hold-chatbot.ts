/**
 * A sync holds its chatbot from before it reads anything until its jobs are in the queue (then
 * the jobs hold it until the run ends). Dry runs hold nothing: they change nothing.
 */
import type { Logger } from '../runtime/logger.js';

/** The lease operations a sync needs (wired to src/queue/chatbot-lease.ts and the lease store). */
export interface SyncLease {
  /** Takes the chatbot for `runId`, waiting up to `waitMs`; throws CHATBOT_BUSY when it cannot. */
  acquire(chatbot: string, runId: string, waitMs: number, signal?: AbortSignal): Promise<void>;
  /** A sign of life while the sync plans and enqueues. */
  beat(chatbot: string, runId: string): Promise<void>;
  /** Releases the chatbot unless the run's jobs now hold it. */
  release(chatbot: string, runId: string): Promise<void>;
}

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
