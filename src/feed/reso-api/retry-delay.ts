/**
 * How long the replication client waits before repeating a request. Kept here rather than taken
 * from src/api/retry.ts (the project's retry module) because src/feed may not import src/api (the
 * layer rules); the formula is the same full-jitter one.
 */

export interface Backoff {
  /** Ceiling of the first wait, ms; it doubles with each further one. */
  baseMs: number;
  /** Ceiling of any wait, ms. */
  maxMs: number;
}

/**
 * The wait before repeat number `repeat` (1 = the first): a random whole ms below
 * min(maxMs, baseMs·2^(repeat−1)). Why full jitter: processes that failed together (a 503 burst)
 * must not come back together.
 */
export function jitteredWait(repeat: number, backoff: Backoff, random: () => number = Math.random): number {
  const doublings = Math.min(30, Math.max(0, repeat - 1));
  return Math.floor(random() * Math.min(backoff.maxMs, backoff.baseMs * 2 ** doublings));
}

/**
 * The wait a Retry-After header asks for (delay-seconds or an HTTP date), at most `capMs`;
 * undefined when there is none or it cannot be read. Why capped: a server asking for an hour must
 * not park a run for an hour; after the capped wait the 429 count decides.
 */
export function retryAfterWait(header: string | string[] | undefined, capMs: number, nowMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - nowMs;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(0, ms), capMs);
}
