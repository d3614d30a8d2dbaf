/**
 * The one retry module (docs/architecture.md, convention 12). Every path that tries a failed call again takes
 * from here:
 * - the delay formula, `backoffDelay` (the queue's backoff strategy and the read loop below);
 * - the Retry-After hint, capped (`retryAfterWithin`);
 * - `retryRead`, the loop for reads done outside the queue (the snapshot's pages, a job's key
 *   lookup), which decides with the retry table it is GIVEN (the configured one, config.api
 *   .retryTable) and sleeps abortably (abortable-sleep.ts, the project's one sleep).
 * Which failures may be repeated is the table's business (retry-policy.ts), not this file's.
 * Writes are never retried here: the queue owns those (its backoff uses `backoffDelay`).
 */
import { sleep } from '../abortable-sleep.js';
import { retryAfterMs } from './errors.js';
import { isRetryable, type RetryTable } from './retry-policy.js';

export interface BackoffSettings {
  /** Ceiling of the first retry's delay, ms; it doubles with each further retry. */
  baseMs: number;
  /** Upper bound of any delay, ms (also of an honoured Retry-After, see retryAfterWithin). */
  maxMs: number;
}

/**
 * The delay before retry number `retry` (1 = the first retry, after one failed attempt):
 * exponential with full jitter, capped, a whole number of ms in [0, min(maxMs, baseMs·2^(retry-1))).
 * Why full jitter: after a burst of 503s hundreds of jobs (or parallel page reads) fail together,
 * and equal delays would bring them back together; a random delay spreads them (AWS
 * "Exponential Backoff and Jitter"). `random` is in [0, 1).
 */
export function backoffDelay(retry: number, settings: BackoffSettings, random: () => number = Math.random): number {
  // Why the exponent stops at 30: 2^30 already passes any sane cap, and 2^n must stay finite.
  const exponent = Math.min(Math.max(0, retry - 1), 30);
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/**
 * The wait the service asked for (Retry-After), at most `maxMs`; undefined when it asked for none.
 * Why capped: a service answering `Retry-After: 3600` must not park a read, or stall a whole
 * queue, for an hour; after the capped wait the attempt budget decides as for any other failure.
 */
export function retryAfterWithin(err: unknown, maxMs: number): number | undefined {
  const asked = retryAfterMs(err);
  return asked === undefined ? undefined : Math.min(asked, maxMs);
}

/** How often and how patiently a read is tried: attempts in all (the first included) and the delays between. */
export interface ReadRetrySchedule extends BackoffSettings {
  attempts: number;
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
export async function retryRead<T>(read: () => Promise<T>, retry: ReadRetry): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= retry.attempts || !isRetryable(error, retry.table) || retry.handBack?.(error) === true) throw error;
      retry.signal?.throwIfAborted();
      // Why: a Retry-After from the service beats our own guess (up to the cap); otherwise full jitter.
      await sleep(retryAfterWithin(error, retry.maxMs) ?? backoffDelay(attempt, retry, retry.random), retry.signal);
      retry.signal?.throwIfAborted();
    }
  }
}
