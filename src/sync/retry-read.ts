/**
 * Bounded retry with exponential backoff and full jitter for READS done outside the queue
 * (the remote snapshot's page reads). Writes are never retried here: the queue owns those.
 */
import { isRetryable } from '../api/retry-policy.js';
import { retryAfterMs } from '../api/errors.js';
import { sleep } from '../abortable-sleep.js';

export interface ReadRetryOptions {
  /** Attempts in all, including the first. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injected so tests and callers decide randomness; defaults to Math.random. */
  random?: () => number;
  signal?: AbortSignal;
}

export const DEFAULT_READ_RETRY: ReadRetryOptions = { attempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

/** Runs `read` until it succeeds, a non-retryable error occurs, or attempts run out. */
export async function retryRead<T>(read: () => Promise<T>, options: ReadRetryOptions = DEFAULT_READ_RETRY): Promise<T> {
  const random = options.random ?? Math.random;
  let attempt = 0;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      attempt += 1;
      if (attempt >= options.attempts || !isRetryable(error)) throw error;
      // Why: a Retry-After from the service beats our own guess; otherwise full jitter keeps
      // several readers from hammering the service in lock-step.
      const hinted = retryAfterMs(error);
      const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
      options.signal?.throwIfAborted();
      await sleep(hinted ?? Math.round(random() * ceiling), options.signal);
      options.signal?.throwIfAborted();
    }
  }
}
