/**
 * Retry delays: exponential with full jitter, capped. Why full jitter: after a burst of 503s
 * hundreds of jobs fail together, and equal delays would bring them back together; a random
 * delay in [0, min(cap, base·2^(n-1))] spreads them (AWS "Exponential Backoff and Jitter").
 */
export const BACKOFF_TYPE = 'capped-full-jitter';

export interface BackoffSettings {
  /** Base delay of the first retry, ms. */
  baseMs: number;
  /** Upper bound of any delay, ms. */
  maxMs: number;
}

/** The delay before retry number `attemptsMade` (1 = first retry). `random` is in [0, 1). */
export function backoffDelay(attemptsMade: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const exponent = Math.max(0, attemptsMade - 1);
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(exponent, 30));
  return Math.floor(random() * ceiling);
}
