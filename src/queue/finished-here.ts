/**
 * The jobs this process's own workers finish, by run. Why: `sync --work` waits for its run by
 * polling the run's counts every 250 ms; told that a job of its run finished here, it looks again
 * the moment its last job is done instead of up to a poll later.
 */
import type { Job, Worker } from 'bullmq';
import { WRITE_LISTINGS } from '../../jobs/support/listing-job-data.js';
import { runIdOf } from './processor.js';

/**
 * Subscribes `listener` to every queue job finished here (completed, or failed an attempt): its
 * run id and how many of the run's jobs it stood for. Returns the unsubscribe.
 */
export type FinishedHere = (listener: (runId: string, runJobs: number) => void) => () => void;

/**
 * The run's jobs a finished queue job stood for: a carrier's listings (jobs/write-listings.ts),
 * else 1. Why a carrier counts all it carried, though it may have split some off to jobs of their
 * own: counted as one, the wait expected more finishes than would ever come and waited out its
 * poll (bench:sync: the command ended 0.1-0.2 s later); counting too many only makes it look once
 * too early.
 */
function runJobsIn(job: Job): number {
  const items = job.name === WRITE_LISTINGS ? (job.data as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? Math.max(1, items.length) : 1;
}

/** The jobs `worker` finishes. A failed attempt counts too: a wait that looks once too early only reads the counts again. */
export function finishedHere(worker: Worker): FinishedHere {
  return (listener) => {
    const finished = (job: Job | undefined): void => {
      if (job !== undefined) listener(runIdOf(job.data), runJobsIn(job));
    };
    worker.on('completed', finished);
    worker.on('failed', finished);
    return () => {
      worker.off('completed', finished);
      worker.off('failed', finished);
    };
  };
}
