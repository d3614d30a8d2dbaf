/** A run's statuses and who starts runs: read by the run record (run-types.ts) and its summary (run-summary.ts). */

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
