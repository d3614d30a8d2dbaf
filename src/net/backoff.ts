/**
 * The one backoff formula (design convention 12): the queue's backoff strategy, the API client's
 * read loop and the replication client's repeats all wait this long.
 */

export interface BackoffSettings {
  /** Ceiling of the first retry's delay, ms; it doubles with each further retry. */
  baseMs: number;
  /** Upper bound of any delay, ms (also of an honoured Retry-After). */
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
