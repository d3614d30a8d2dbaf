/**
 * Alert jobs on the 'alerts' queue: their deterministic ids, adding one, and waiting for some to
 * be delivered (or given up) — what `sync --work` does before it exits.
 */
import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import { sleep } from '../net/abortable-sleep.js';
import { encodeIdPart } from '../domain/job-id.js';
import { DELIVER_ALERT, deliveryOptions, type AlertJobSettings, type DeliverAlertData } from '../../jobs/deliver-alert.js';

/**
 * The id of the job announcing one change of one chatbot to one alert: the same change seen by
 * several processes (workers, the CLI) is added once (BullMQ ignores an add of an existing id).
 */
export function alertJobId(alert: string, chatbot: string, changeId: string): string {
  const id = `alert.${[alert, chatbot, changeId].map(encodeIdPart).join('.')}`;
  return id.length <= 200 ? id : `alert._sha1-${createHash('sha1').update(id).digest('hex')}`;
}

/** Adds a delivery; returns its job id. */
export async function addAlertJob(queue: Queue, jobId: string, data: DeliverAlertData, settings: AlertJobSettings): Promise<string> {
  await queue.add(DELIVER_ALERT, data, { jobId, ...deliveryOptions(settings) });
  return jobId;
}

/** Of `jobIds`, those that exist in the queue (an alert was added for them). */
export async function existingAlertJobs(queue: Queue, jobIds: readonly string[]): Promise<string[]> {
  const states = await Promise.all(jobIds.map((id) => queue.getJobState(id)));
  return jobIds.filter((_, i) => states[i] !== 'unknown');
}

/**
 * Waits until each job is completed or failed for good, at most `timeoutMs`; returns the ids
 * still pending then (empty when every delivery ended).
 */
export async function waitForAlertJobs(queue: Queue, jobIds: readonly string[], timeoutMs: number, pollMs = 100): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  let pending = [...jobIds];
  for (;;) {
    const states = await Promise.all(pending.map((id) => queue.getJobState(id)));
    pending = pending.filter((_, i) => !['completed', 'failed', 'unknown'].includes(states[i] ?? 'unknown'));
    if (pending.length === 0 || Date.now() >= until) return pending;
    await sleep(pollMs);
  }
}
