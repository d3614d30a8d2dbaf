/**
 * The jobs this process's own workers finish, by run. Why: `sync --work` waits for its run by
 * polling the run's counts every 250 ms; told that a job of its run finished here, it looks again
 * the moment its last job is done instead of up to a poll later (bench:sync measured the command
 * ending ~0.25 s after its last write).
 */
import type { Job, Worker } from 'bullmq';
import { runIdOf } from './processor.js';

/** Subscribes `listener` to the run id of every job finished here (completed, or failed an attempt); returns the unsubscribe. */
export type FinishedHere = (listener: (runId: string) => void) => () => void;

/** The jobs `worker` finishes. A failed attempt counts too: a wait that looks once too early only reads the counts again. */
export function finishedHere(worker: Worker): FinishedHere {
  return (listener) => {
    const finished = (job: Job | undefined): void => {
      if (job !== undefined) listener(runIdOf(job.data));
    };
    worker.on('completed', finished);
    worker.on('failed', finished);
    return () => {
      worker.off('completed', finished);
      worker.off('failed', finished);
    };
  };
}
