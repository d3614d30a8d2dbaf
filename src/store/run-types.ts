/** The shapes of run records: what a sync did, kept in Redis by runs.ts. */
import type { NewRunSummary, RunSummary } from './run-summary.js';

/**
 * - planned: a dry run's record, or a run whose record exists before its jobs;
 * - enqueuing: its jobs are being added (the total is not known yet);
 * - running: every job is in the queue; the run ends when each recorded its final outcome;
 * - done / failed: every job finished (failed: some failed for good);
 * - refused: the guard refused it, nothing was enqueued;
 * - cancelled: `runs cancel` removed its remaining jobs;
 * - skipped: a scheduled run that found its chatbot held by another run;
 * - stuck: unfinished jobs without progress for longer than the reconciler allows (it may still
 *   end as done or failed when they finish later).
 */
export const RUN_STATUSES = ['planned', 'enqueuing', 'running', 'done', 'refused', 'failed', 'cancelled', 'skipped', 'stuck'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses after which a run holds no lease and waits for nothing. */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['done', 'refused', 'failed', 'cancelled', 'skipped', 'stuck'];

export function isFinalStatus(status: RunStatus): boolean {
  return FINAL_RUN_STATUSES.includes(status);
}

/** Who started a run: declared here once (the sync request, its summary and the record use it). */
export const RUN_TRIGGERS = ['cli', 'schedule', 'demo'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

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
  /** Rejected feed rows, kept whole (the CSV download needs every one). */
  rejected?: readonly unknown[];
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
