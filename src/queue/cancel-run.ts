/**
 * `runs cancel`: stops a run. The run is marked cancelled first (atomically, its chatbot released),
 * so any of its jobs that a worker starts from then on completes without a request; then its
 * waiting and delayed jobs are removed from the queue. Jobs a worker holds right now finish and
 * record what they did: a request already sent is never abandoned halfway.
 */
import type { Queue } from 'bullmq';
import type { RunStatus } from '../store/run-types.js';
import type { Store } from '../store/store.js';
import { inspectRun } from './run-inspection.js';

export interface CancelResult {
  /** The run's status afterwards (cancelled, or the final status it already had). */
  status: RunStatus;
  /** The run's jobs removed from the queue (a listing carried with others counts as one). */
  removed: number;
  /** Jobs not removed: held by a worker right now (left to finish), or already gone. */
  running: number;
}

const PARALLEL = 16;

/** Cancels `runId`; undefined when there is no such run. */
export async function cancelRun(store: Store, writes: Queue, runId: string, now: number): Promise<CancelResult | undefined> {
  const state = await store.runs.runState(runId);
  if (state.status === undefined || state.chatbot === undefined) return undefined;
  const status = await store.runs.cancelRun(runId, state.chatbot, now);
  if (status !== 'cancelled') return { status: status ?? state.status, removed: 0, running: 0 };
  const { queued } = await inspectRun(store, writes, runId);
  const holders = [...queued];
  let removed = 0;
  let running = 0;
  for (let i = 0; i < holders.length; i += PARALLEL) {
    const part = holders.slice(i, i + PARALLEL);
    // Queue.remove answers 0 for a job a worker holds the lock of (it is left to finish).
    const answers = await Promise.all(part.map(([jobId]) => writes.remove(jobId)));
    // Counted in the run's jobs: a carrier removed takes every listing it carries with it.
    answers.forEach((answer, n) => {
      const jobs = part[n]?.[1] ?? 1;
      if (answer === 1) removed += jobs;
      else running += jobs;
    });
  }
  return { status: 'cancelled', removed, running };
}
