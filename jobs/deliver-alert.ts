/**
 * deliver-alert: posts one alert to one configured webhook (queue 'alerts'). The payload names
 * the alert configuration, never its webhook URL (a secret must not sit in a job payload, where
 * bull-board shows it): the URL is read from the configuration when the job runs, so a removed
 * configuration sends nothing and an edited one sends to its new address. Every attempt is
 * recorded in the delivery log (status, time, HTTP answer) for the dashboard.
 */
import { z } from 'zod';
import type { WebhookAnswer } from '../src/api/webhook.js';
import { alertBody, type AlertMessage } from '../src/domain/health/alert-body.js';
import { ALERT_EVENTS, HEALTH_STATUSES } from '../src/domain/health/status.js';
import { coerceError, errorFields } from '../src/shared/errors.js';
import type { Logger } from '../src/runtime/logger.js';
import type { AlertConfig } from '../src/store/alert-config.js';
import type { AlertStore } from '../src/store/alert-store.js';
import type { JobKind } from './support/job-context.js';

export const DELIVER_ALERT = 'deliver-alert';

const countSchema = z.number().int().nonnegative();

export const alertMessageSchema: z.ZodType<AlertMessage> = z.object({
  status: z.enum([...ALERT_EVENTS, 'test']),
  previousStatus: z.enum(HEALTH_STATUSES).nullable(),
  chatbot: z.string(),
  runId: z.string().nullable(),
  startedAt: z.string().nullable(),
  counts: z.object({ created: countSchema, updated: countSchema, deleted: countSchema, failed: countSchema, rejected: countSchema }),
  reasons: z.array(z.string()),
});

export const deliverAlertDataSchema = z.object({ alert: z.string().min(1), message: alertMessageSchema });
export type DeliverAlertData = z.infer<typeof deliverAlertDataSchema>;

export interface DeliverAlertDeps {
  alerts: Pick<AlertStore, 'getConfig' | 'recordDelivery' | 'webhookUrl'>;
  post(url: string, body: unknown, timeoutMs: number): Promise<WebhookAnswer>;
  /** DASHBOARD_PUBLIC_URL: links in the bodies; none without it. */
  dashboardUrl?: string;
  timeoutMs: number;
  now(): number;
}

export interface DeliveryAttempt {
  jobId?: string;
  /** 1 for the first attempt. */
  attempt: number;
}

/**
 * Sends `data.message` to the configuration's webhook in its format and records the attempt.
 * Resolves 'sent', or 'no-config' when the configuration was removed; rethrows a failed post
 * (its error says whether it is worth retrying) after recording it.
 */
export async function deliverAlert(
  data: DeliverAlertData,
  attempt: DeliveryAttempt,
  deps: DeliverAlertDeps,
): Promise<'sent' | 'no-config'> {
  const config = await deps.alerts.getConfig(data.alert);
  if (config === undefined) return 'no-config';
  return await deliverTo(config, data.message, attempt, deps);
}

/** Posts `message` to `config`'s webhook and records the attempt (also used by `alerts test`, without the queue). */
export async function deliverTo(
  config: AlertConfig,
  message: AlertMessage,
  attempt: DeliveryAttempt,
  deps: Omit<DeliverAlertDeps, 'alerts'> & { alerts: Pick<AlertStore, 'recordDelivery' | 'webhookUrl'> },
): Promise<'sent'> {
  const record = {
    alert: config.name,
    chatbot: message.chatbot,
    status: message.status,
    attempt: attempt.attempt,
    ...(attempt.jobId === undefined ? {} : { jobId: attempt.jobId }),
  };
  try {
    const answer = await deps.post(deps.alerts.webhookUrl(config), alertBody(config.format, message, deps.dashboardUrl), deps.timeoutMs);
    await deps.alerts.recordDelivery({ ...record, at: deps.now(), ok: true, httpStatus: answer.status });
    return 'sent';
  } catch (thrown) {
    const { details } = errorFields(thrown);
    const httpStatus = typeof details.httpStatus === 'number' ? details.httpStatus : undefined;
    const error = thrown instanceof Error ? thrown.message : String(thrown);
    await deps.alerts.recordDelivery({ ...record, at: deps.now(), ok: false, ...(httpStatus === undefined ? {} : { httpStatus }), error });
    throw thrown;
  }
}

/** What the alerts queue's worker gives a delivery job: the delivery's dependencies and where a given-up delivery is told. */
export type AlertJobDeps = DeliverAlertDeps & { logger: Pick<Logger, 'warn'> };

/**
 * The deliver-alert kind. Why a failure is final at once unless the error says retrying may help:
 * a webhook that answers 5xx/408/429, times out or cannot be reached may answer later (the job's
 * backoff waits); one that answers another 4xx (a removed Slack webhook answers 404/410) will not.
 */
/** Retry settings of alert deliveries. */
export interface AlertJobSettings {
  attempts: number;
  /** First backoff delay; doubled on each attempt (BullMQ's exponential backoff). */
  backoffMs: number;
  /** Days failed deliveries are kept (for the dashboard and bull-board). */
  keepFailedDays: number;
}

/**
 * Why 8 attempts with doubling backoff from 1 s: a webhook that is down for about four minutes
 * (a deploy, a restart) still gets the alert; one down longer shows the failed delivery in the
 * dashboard instead of retrying forever.
 */
export const DEFAULT_ALERT_JOBS: Readonly<AlertJobSettings> = { attempts: 8, backoffMs: 1000, keepFailedDays: 30 };

/** A delivery's attempts, backoff and how long it is kept, as job options (plain data: jobs never import bullmq). */
export function deliveryOptions(settings: AlertJobSettings): {
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: { age: number; count: number };
  removeOnFail: { age: number };
} {
  return {
    attempts: settings.attempts,
    backoff: { type: 'exponential', delay: settings.backoffMs },
    removeOnComplete: { age: 7 * 86_400, count: 10_000 },
    removeOnFail: { age: settings.keepFailedDays * 86_400 },
  };
}

export const deliverAlertJob: JobKind<DeliverAlertData, AlertJobDeps, 'sent' | 'no-config'> = {
  name: DELIVER_ALERT,
  queue: 'alerts',
  schema: deliverAlertDataSchema,
  async process(ctx, deps) {
    return await deliverAlert(ctx.data, { attempt: ctx.attemptsMade + 1, ...(ctx.id === '' ? {} : { jobId: ctx.id }) }, deps);
  },
  finalOn(thrown) {
    const error = coerceError(thrown);
    return !('retryable' in error && error.retryable === true);
  },
  onFinalFailure(ctx, deps, failure) {
    // Failed deliveries stay in the queue (bull-board) and in the delivery log; the line says it now.
    deps.logger.warn(
      { job: ctx.id, alert: ctx.data.alert, chatbot: ctx.data.message.chatbot, err: failure.message },
      `alert ${ctx.data.alert} could not be delivered: ${failure.message}`,
    );
    return Promise.resolve();
  },
};
