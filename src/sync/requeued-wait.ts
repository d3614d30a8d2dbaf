/**
 * A run that ended and whose failed jobs were retried since (`jobs retry`, the dashboard's retry):
 * its record stays final, counting those jobs as finished, so waiting on its counts ends at once.
 * What tells that it is working again is the queue: the retried jobs not finished again
 * (src/queue/failed-jobs.ts `runFailures`). `runs resume R --work` and `jobs retry --run R --work`
 * wait on that until the last of them finished (done, or failed for good again).
 */
import { runFailures } from '../queue/failed-jobs.js';
import type { RunControlDeps } from './run-control.js';

/** The run's jobs retried since they failed and not finished again. */
export async function requeuedJobs(deps: RunControlDeps, runId: string): Promise<number> {
  return (await runFailures(deps.writes, deps.store, runId)).requeued.jobs;
}

export interface RequeuedWaitOptions {
  signal: AbortSignal;
  /** Called after each read with how many retried jobs are still unfinished. */
  onProgress?: (left: number) => void;
  pollMs?: number;
}

/** Resolves once none of the run's retried jobs is unfinished; rejects with the signal's reason when it aborts. */
export async function waitForRequeued(deps: RunControlDeps, runId: string, options: RequeuedWaitOptions): Promise<void> {
  const pollMs = options.pollMs ?? 250;
  for (;;) {
    if (options.signal.aborted) throw options.signal.reason;
    const left = await requeuedJobs(deps, runId);
    options.onProgress?.(left);
    if (left === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done(): void {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', done);
        resolve();
      }
      options.signal.addEventListener('abort', done, { once: true });
    });
  }
}
