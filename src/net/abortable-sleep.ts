/**
 * Waits `ms`, woken early when `signal` aborts, with one abort listener that is always removed
 * (a listener per wait left behind is how a long `sync --work` got MaxListenersExceededWarning).
 * Resolves either way; callers that must stop call `signal.throwIfAborted()` after it.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
