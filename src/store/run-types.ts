/** The shapes of run records: what a sync did, kept in Redis by runs.ts. */
import type { NewRunSummary, RunSummary } from './run-summary.js';
import { RUN_STATUSES, RUN_TRIGGERS, FINAL_RUN_STATUSES, isFinalStatus, type RunStatus, type RunTrigger } from './run-status.js';

// Why re-exported: the run's statuses and triggers live in run-status.ts (run-summary.ts needs them
// without the record's shape, which needs the summary's); callers keep reading them here.
export { RUN_STATUSES, RUN_TRIGGERS, FINAL_RUN_STATUSES, isFinalStatus, type RunStatus, type RunTrigger };

/** Final outcomes a job can record; each has a live count on its run. */
export const JOB_OUTCOMES = ['created', 'updated', 'deleted', 'unchanged', 'edited', 'superseded', 'cancelled', 'failed'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/**
 * Live counts of a run. Listing outcomes count listings (a delete batch of 100 keys adds 100 to
 * `deleted`); `totalJobs`/`finishedJobs`/`failedJobs` count jobs. `retried` counts attempts beyond
 * each job's first (stalled re-runs and rate-limited re-queues included).
 */
export interface RunCounts {
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  edited: number;
  superseded: number;
  /** Jobs that found their run cancelled when they started (they sent nothing). */
  cancelled: number;
  failed: number;
  retried: number;
  totalJobs: number;
  finishedJobs: number;
  failedJobs: number;
}

/** What the sync hands over when it starts a run. */
export interface NewRun {
  id: string;
  chatbot: string;
  trigger: RunTrigger;
  forced: boolean;
  status: RunStatus;
  startedAt: number;
  finishedAt?: number;
  /** The sync's summary (feed stats, remote stats, plan counts, guard verdict), or why a scheduled run was skipped. */
  summary?: NewRunSummary;
  /** The first rejected feed rows, kept whole (at most src/sync/rejected-rows.ts MAX_REJECTED_KEPT; --report holds every one). */
  rejected?: readonly unknown[];
  /** How many rows were rejected in all (default: how many `rejected` holds). */
  rejectedCount?: number;
}

/** A run as stored: what the sync handed over (rejected rows are read apart) plus its live counts. */
export interface RunRecord extends Omit<NewRun, 'summary' | 'rejected'> {
  /** The stored summary's valid parts (see run-summary.ts); null when the run has none. */
  summary: RunSummary | null;
  counts: RunCounts;
  rejectedCount: number;
  /** Why the reconciler marked the run stuck (status 'stuck'). */
  stuckReason?: string;
}

export function emptyCounts(): RunCounts {
  return {
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    edited: 0,
    superseded: 0,
    cancelled: 0,
    failed: 0,
    retried: 0,
    totalJobs: 0,
    finishedJobs: 0,
    failedJobs: 0,
  };
}
