/**
 * What a scheduled occurrence came to: one chatbot's sync (src/sync/scheduled-run.ts) or a
 * source's fan-out (src/sync/fleet-schedule.ts). Its home is domain because both sides of the
 * injection use it: the sync-run job (jobs/) receives it and the sync use case (src/sync) returns it.
 */
export interface ScheduledRun {
  runId: string;
  /** enqueued: its jobs are in the queue; refused: the guard refused it; skipped: another run held the chatbot. */
  status: 'enqueued' | 'refused' | 'skipped';
  /** Why it was refused or skipped. */
  reason?: string;
}
