/** What a scheduled occurrence came to (scheduled-run.ts: one chatbot's sync; fleet-schedule.ts: a source's fan-out). */

/**
 * What a scheduled sync came to. The sync-run job receives it (jobs/support/job-context.ts
 * `ScheduledSyncResult`, the same shape: jobs/ may not import src/sync, and the composition root
 * that injects one into the other is where the two are checked against each other).
 */
export interface ScheduledRun {
  runId: string;
  /** enqueued: its jobs are in the queue; refused: the guard refused it; skipped: another run held the chatbot. */
  status: 'enqueued' | 'refused' | 'skipped';
  /** Why it was refused or skipped. */
  reason?: string;
}
