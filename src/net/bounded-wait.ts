/**
 * Waits that a stop must not be held by: a step raced against the stop signal, and a step given
 * a bound. Why: during a Redis Cluster failover a command for the lost master's slots waits for
 * its replica (up to the connection's minute of retries), and a stopping process must end within
 * seconds; the step itself goes on (the connection's close fails it), nobody waits for it.
 */

/** `work`, or the signal's reason as soon as it aborts (a rejection of `work` after that is ignored). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** Resolves once `work` settles or after `ms`, whichever is first (never rejects). */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([
      work.then(
        () => undefined,
        () => undefined,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
