/**
 * The request budget a replication client spends before every request to the feed server. An
 * MLS suspends a client that sends more requests in a second, an hour or a day than it allows
 * (MLS Grid, Trestle, Bridge all do), so the budget is checked before a request, never after a
 * 429. The Redis implementation shared by every process lives in src/store; this file holds the
 * structural interface the client needs and the budget that never waits.
 */
import { ListingSyncError } from '../../shared/errors.js';
import { ErrorCode } from '../../shared/error-codes.js';

export interface FeedRequestBudget {
  /**
   * Waits until one more request fits every window (across all processes), then counts it.
   * Rejects with a ListingSyncError code 'BUDGET_EXHAUSTED' (details: { window, retryAtMs }) when
   * the wait would be longer than `maxWaitMs` (e.g. a full daily window).
   */
  acquire(options: { maxWaitMs: number; signal?: AbortSignal }): Promise<void>;
  /** Counts the bytes of a response received (for bytes-per-hour windows). */
  addBytes(bytes: number): Promise<void>;
  /**
   * Whether the bytes-per-hour window has room now (true without one); counts nothing. Photo
   * downloads ask before they start (src/feed/media/photo-hosting.ts).
   */
  bytesRoom?(): Promise<boolean>;
}

/** The BUDGET_EXHAUSTED error: `window` is used up until `retryAtMs` (epoch ms). */
export function budgetExhausted(window: string, retryAtMs: number): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.BUDGET_EXHAUSTED,
    `the feed request budget's ${window} window is used up; the next request fits at ${new Date(retryAtMs).toISOString()}`,
    { details: { window, retryAtMs } },
  );
}

/** A budget without limits: every request fits at once (tests, feeds without a published budget). */
export function unlimitedBudget(): FeedRequestBudget {
  return {
    acquire: () => Promise.resolve(),
    addBytes: () => Promise.resolve(),
  };
}
