/**
 * An alert configuration as stored (zod: parsed where it is read, leniently: a record this version
 * cannot read is skipped, never a crash) and the record of one delivery attempt.
 */
import { z } from 'zod';
import { ALERT_FORMATS } from '../domain/health/alert-body.js';
import { ALERT_EVENTS } from '../domain/health/status.js';

export const sealedWebhookSchema = z.object({ v: z.literal(1), iv: z.string(), tag: z.string(), data: z.string() });

export const alertConfigSchema = z.object({
  name: z.string().min(1),
  /**
   * The webhook: a secret. Sealed as stored (webhook-seal.ts); the plain URL as `alerts add` and a
   * fleet file give it, and as configurations stored before sealing hold it (re-sealed when saved).
   */
  webhook: z.union([z.string().min(1), sealedWebhookSchema]),
  /** What may be shown of it: scheme and host (maskWebhookUrl), stored beside the sealed URL. */
  webhookShown: z.string().optional(),
  format: z.enum(ALERT_FORMATS),
  /** Events sent; the status machine still follows the others (they change what "a change" is). */
  on: z.array(z.enum(ALERT_EVENTS)),
  /** Chatbots watched; empty: every chatbot. */
  chatbots: z.array(z.string()),
  failedRowsPercent: z.number().min(0).max(100).optional(),
  staleAfterMs: z.number().int().positive(),
  createdAt: z.number(),
});
export type AlertConfig = z.infer<typeof alertConfigSchema>;

export const alertDeliverySchema = z.object({
  alert: z.string(),
  chatbot: z.string(),
  status: z.string(),
  at: z.number(),
  /** The attempt number (1 = first). */
  attempt: z.number(),
  ok: z.boolean(),
  /** The webhook's HTTP status, when it answered. */
  httpStatus: z.number().optional(),
  /** Why it failed (never the URL). */
  error: z.string().optional(),
  jobId: z.string().optional(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

/** Whether `config` watches `chatbot`. */
export function watches(config: Pick<AlertConfig, 'chatbots'>, chatbot: string): boolean {
  return config.chatbots.length === 0 || config.chatbots.includes(chatbot);
}
