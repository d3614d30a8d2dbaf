/**
 * The alert configurations an operator manages (`listing-sync alerts add|list|remove|test`): saved,
 * listed and removed in the alert store, and a sample sent to a webhook to check it. The webhook
 * URL is a secret: the store keeps it, callers show it masked.
 */
import type { AlertMessage } from '../domain/health/alert-body.js';
import { UsageError } from '../shared/errors.js';
import type { AlertConfig } from '../store/alert-config.js';
import { alertField, type AlertStore } from '../store/alert-store.js';

/** Saves `alert` (replacing one of its name); true when it replaced one. */
export async function saveAlert(store: AlertStore, alert: AlertConfig): Promise<boolean> {
  return store.saveConfig(alert);
}

/** Every alert configuration. */
export async function listAlerts(store: AlertStore): Promise<AlertConfig[]> {
  return store.listConfigs();
}

/** Removes alert `name` and what it remembered of each chatbot's health; false when there was none. */
export async function removeAlert(store: AlertStore, name: string): Promise<boolean> {
  const removed = await store.removeConfig(name);
  if (removed) await store.forgetState(await store.trackedChatbots(), alertField(name));
  return removed;
}

/** Alert `name`; a usage error (exit 2) naming where to look when there is none. */
export async function alertOrUsageError(store: AlertStore, name: string): Promise<AlertConfig> {
  const alert = await store.getConfig(name);
  if (alert === undefined) throw new UsageError(`no alert ${name}: see \`listing-sync alerts list\``);
  return alert;
}

/** The sample `alerts test` sends. */
export function sampleMessage(config: AlertConfig, now: number): AlertMessage {
  return {
    status: 'test',
    previousStatus: null,
    chatbot: config.chatbots[0] ?? 'example-chatbot',
    runId: null,
    startedAt: new Date(now).toISOString(),
    counts: { created: 0, updated: 0, deleted: 0, failed: 0, rejected: 0 },
    reasons: ['a test alert sent by `listing-sync alerts test`: this webhook receives listing-sync alerts'],
  };
}

/** Delivers one message to one alert's webhook (wired to the delivery job's code); throws when it was not taken. */
export type DeliverAlert = (alert: AlertConfig, message: AlertMessage) => Promise<unknown>;

/** Sends the sample to `alert`'s webhook now: sent, or why not (the error's message). */
export async function sendTestAlert(
  alert: AlertConfig,
  deliver: DeliverAlert,
  now: number,
): Promise<{ sent: true } | { sent: false; error: string }> {
  try {
    await deliver(alert, sampleMessage(alert, now));
    return { sent: true };
  } catch (thrown) {
    return { sent: false, error: thrown instanceof Error ? thrown.message : String(thrown) };
  }
}
