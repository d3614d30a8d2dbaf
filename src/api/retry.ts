/**
 * The API client's side of retrying (docs/architecture.md, convention 12). The formula, the Retry-After parser and
 * the read loop are the shared ones (src/net/); this file adds what only the API client knows:
 * - the Retry-After an ApiError carries, capped (`retryAfterWithin`);
 * - `retryApiRead`, the loop for reads done outside the queue (the snapshot's pages, a job's key
 *   lookup), which decides with the retry table it is GIVEN (the configured one, config.api
 *   .retryTable).
 * Which failures may be repeated is the table's business (retry-policy.ts), not this file's.
 * Writes are never retried here: the queue owns those (its backoff uses src/net/backoff.ts).
 */
import { retryRead as retryWith, type ReadRetrySchedule } from '../net/retry-read.js';
import { retryAfterMs } from './errors.js';
import { isRetryable, type RetryTable } from './retry-policy.js';

/**
 * The wait the service asked for (Retry-After, as an ApiError carries it), at most `maxMs`;
 * undefined when it asked for none. Why capped: see src/net/retry-after.ts.
 */
export function retryAfterWithin(err: unknown, maxMs: number): number | undefined {
  const asked = retryAfterMs(err);
  return asked === undefined ? undefined : Math.min(asked, maxMs);
}

export interface ReadRetry extends ReadRetrySchedule {
  /** What may be tried again: the configured table (config.api.retryTable), passed down by the caller. */
  table: RetryTable;
  /** Stops the waiting between attempts (the read's own request takes the signal separately). */
  signal?: AbortSignal;
  /**
   * Failures handed straight back although the table would retry them: the caller has a better
   * place for them (a job's lookup hands rate limits to the queue, which slows every worker).
   */
  handBack?: (error: unknown) => boolean;
  /** Injected so tests decide randomness; Math.random when absent. */
  random?: () => number;
}

/**
 * Runs `read` until it succeeds, fails in a way `retry.table` does not retry (or `handBack`
 * claims), or `retry.attempts` are used up; then rethrows the last failure unchanged. Rejects
 * with the signal's reason once the signal aborts between attempts.
 */
export async function retryApiRead<T>(read: () => Promise<T>, retry: ReadRetry): Promise<T> {
  return retryWith(read, {
    ...retry,
    mayRetry: (error) => isRetryable(error, retry.table) && retry.handBack?.(error) !== true,
    askedWaitMs: (error) => retryAfterWithin(error, retry.maxMs),
  });
}
