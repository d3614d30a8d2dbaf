/**
 * The one loop that repeats a failed read outside the queue (design convention 12). What may be
 * repeated and how long the other side asked to wait are the caller's knowledge (the API client
 * decides with its retry table, src/api/retry.ts); how long to wait otherwise is the backoff formula.
 * Writes are never repeated here: the queue owns those.
 */
import { sleep } from './abortable-sleep.js';
import { backoffDelay, type BackoffSettings } from './backoff.js';

/** How often and how patiently a read is tried: attempts in all (the first included) and the delays between. */
export interface ReadRetrySchedule extends BackoffSettings {
  attempts: number;
}

export interface RetryReadOptions extends ReadRetrySchedule {
  /** True when this failure may be tried again. */
  mayRetry: (error: unknown) => boolean;
  /** The wait the other side asked for (Retry-After), ms, already capped; undefined when it asked for none. */
  askedWaitMs?: (error: unknown) => number | undefined;
  /** Stops the waiting between attempts (the read's own request takes the signal separately). */
  signal?: AbortSignal;
  /** Injected so tests decide randomness; Math.random when absent. */
  random?: () => number;
  /** Injected so tests decide time; the abortable sleep when absent. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Runs `read` until it succeeds, fails in a way `mayRetry` refuses, or `attempts` are used up;
 * then rethrows the last failure unchanged. Rejects with the signal's reason once the signal
 * aborts between attempts.
 */
export async function retryRead<T>(read: () => Promise<T>, options: RetryReadOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= options.attempts || !options.mayRetry(error)) throw error;
      options.signal?.throwIfAborted();
      // Why: the other side's Retry-After beats our own guess (up to the cap); otherwise full jitter.
      const waitMs = options.askedWaitMs?.(error) ?? backoffDelay(attempt, options, options.random);
      await (options.sleep ?? sleep)(waitMs, options.signal);
      options.signal?.throwIfAborted();
    }
  }
}
