/**
 * Waits for a run to finish by polling its counts (one HMGET every ~250 ms): cheap, and unlike
 * QueueEvents it needs no stream reader on the hot path and survives worker restarts.
 */
import type { Store } from '../store/store.js';
import type { RunCounts } from '../store/run-types.js';

export interface WaitOptions {
  onProgress?: (counts: RunCounts) => void;
  signal?: AbortSignal;
  pollMs?: number;
}

/** Resolves with the final counts once every job of the run completed or failed for good. */
export async function waitForRun(store: Store, runId: string, options: WaitOptions = {}): Promise<RunCounts> {
  const pollMs = options.pollMs ?? 250;
  for (;;) {
    options.signal?.throwIfAborted();
    const counts = await store.runs.runCounts(runId);
    options.onProgress?.(counts);
    if (counts.finishedJobs >= counts.totalJobs) return counts;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      options.signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
  }
}
