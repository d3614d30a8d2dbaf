/**
 * After a sync in the CLI (`sync`, `runs resume`): its chatbot's health is evaluated at once (a
 * refused run is announced without waiting for a worker's monitor), and with `--work` the command
 * waits for its run's alerts to be delivered before the process exits, so a one-off command alerts too.
 */
import { existingAlertJobs, waitForAlertJobs } from '../../queue/alert-jobs.js';
import { alertJobIdsOfRun, evaluateChatbot } from '../../sync/health/evaluate.js';
import { healthDeps } from './alert-wiring.js';
import type { SyncSession } from './sync-session.js';

/** Why 30 s: long enough for a webhook that answered 500 once to get its retry; short enough for a script. */
export const ALERT_WAIT_MS = 30_000;

/**
 * Evaluates `chatbot` after run `runId`; with `waitForDelivery` (this process runs the alerts
 * worker) waits up to ALERT_WAIT_MS for the run's alerts. Never fails the sync: an alert that
 * could not be evaluated or delivered in time is one warning line (the workers keep retrying).
 */
export async function announceRun(session: SyncSession, chatbot: string, runId: string, waitForDelivery: boolean): Promise<void> {
  const deps = healthDeps(session.ctx, session.config, session.logger);
  try {
    await evaluateChatbot(deps, chatbot);
    if (!waitForDelivery) return;
    const queue = session.ctx.queues.alerts;
    const ids = await existingAlertJobs(queue, alertJobIdsOfRun(await deps.alerts.listConfigs(), chatbot, runId));
    if (ids.length === 0) return;
    const pending = await waitForAlertJobs(queue, ids, ALERT_WAIT_MS);
    if (pending.length > 0)
      session.logger.warn(
        { runId, alerts: pending.length },
        `${pending.length} alert(s) of run ${runId} not delivered within ${ALERT_WAIT_MS / 1000} s; workers keep retrying them`,
      );
  } catch (thrown) {
    session.logger.warn(
      { runId, err: thrown instanceof Error ? thrown.message : String(thrown) },
      `could not evaluate the health of ${chatbot} after run ${runId}; a worker's health check will`,
    );
  }
}
