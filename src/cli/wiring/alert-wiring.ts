/**
 * Alerts wired to a process's Redis and config: the health evaluation's dependencies, the
 * delivery job's, and (in every worker process) the alerts worker plus the health monitor.
 */
import { testClock } from './display-policy-file.js';
import { postWebhook } from '../../api/webhook.js';
import { webhookClearProblem } from '../../config/clear-credentials.js';
import type { Config } from '../../config/config.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { ListingSyncError } from '../../shared/errors.js';
import { DEFAULT_ALERT_JOBS, deliverTo, type AlertJobSettings, type DeliverAlertDeps } from '../../../jobs/deliver-alert.js';
import type { Logger } from '../../runtime/logger.js';
import { addAlertJob } from '../../queue/alert-jobs.js';
import { startAlertWorker } from '../../queue/alert-worker.js';
import { requireSeal, webhookSealFor } from './job-seal-wiring.js';
import { AlertStore } from '../../store/alert-store.js';
import { evaluateChatbot, type HealthDeps } from '../../sync/health/evaluate.js';
import { startHealthMonitor } from '../../sync/health/monitor.js';
import type { DeliverAlert } from '../../sync/alerts-admin.js';
import type { ScheduledRun } from '../../domain/scheduled-run.js';
import type { QueueContext } from './queue-context.js';

/** Alert job settings from Config: the configured first backoff (tests shorten it), kept as long as failed jobs. */
export function alertJobSettings(config: Config): AlertJobSettings {
  return {
    ...DEFAULT_ALERT_JOBS,
    backoffMs: Math.min(config.jobs.backoffMs, DEFAULT_ALERT_JOBS.backoffMs),
    keepFailedDays: config.retention.keepDays,
  };
}

export function alertStoreOf(ctx: Pick<QueueContext, 'redis'>, config: Config): AlertStore {
  return new AlertStore(ctx.redis, config.redis.prefix, webhookSealFor(config));
}

/**
 * Reads the stored alert configurations so that their webhooks' secrets are registered with the
 * scrubber (alert-store.ts) before this process writes anything: a job failure quoting one is
 * then scrubbed before it is stored. Best effort: when Redis does not answer (or the ACL user may
 * not read the key), the command goes on, and each configuration is registered when it is read.
 */
export async function learnWebhookSecrets(ctx: Pick<QueueContext, 'redis'>, config: Config): Promise<void> {
  await alertStoreOf(ctx, config)
    .listConfigs()
    .catch(() => undefined);
}

export function healthDeps(ctx: QueueContext, config: Config, logger: Logger): HealthDeps {
  const settings = alertJobSettings(config);
  return {
    runs: ctx.store.runs,
    alerts: alertStoreOf(ctx, config),
    addAlert: async (jobId, alert, message) => void (await addAlertJob(ctx.queues.alerts, jobId, { alert, message }, settings)),
    now: testClock() ?? ((): number => Date.now()),
    logger,
    outage: () => ctx.store.breaker.outage(),
    async failureCodes(chatbot, runId) {
      const codes = new Map<string, number>();
      for (const keyType of ['MLSNumber', 'URL'] as const)
        for (const failure of (await ctx.store.failedKeys.failedKeys(chatbot, keyType)).values())
          if (failure.runId === runId) codes.set(failure.code, (codes.get(failure.code) ?? 0) + 1);
      return codes;
    },
  };
}

/**
 * The post of a delivery: refused before any connection when the webhook is plain http to a host
 * that is neither loopback nor in LISTING_SYNC_PLAIN_HTTP_HOSTS (one stored before that rule, or
 * the list changed since), as `alerts add` refuses it; not retried, since retrying cannot help.
 */
function checkedPost(config: Config): DeliverAlertDeps['post'] {
  return async (url, body, timeoutMs) => {
    const clear = webhookClearProblem(url, 'the alert webhook', config.plainHttpHosts);
    if (clear !== undefined) throw new ListingSyncError(ErrorCode.WEBHOOK_REJECTED, clear, { retryable: false });
    return await postWebhook(url, body, timeoutMs);
  };
}

export function deliveryDeps(alerts: AlertStore, config: Config): DeliverAlertDeps {
  return {
    alerts,
    post: checkedPost(config),
    timeoutMs: config.alerts.timeoutMs,
    now: () => Date.now(),
    ...(config.alerts.dashboardUrl === undefined ? {} : { dashboardUrl: config.alerts.dashboardUrl }),
  };
}

/** One delivery now, outside the queue (`alerts test`): the delivery job's own code, first attempt. */
export function deliverNow(alerts: AlertStore, config: Config): DeliverAlert {
  const deps = deliveryDeps(alerts, config);
  return (alert, message) => deliverTo(alert, message, { attempt: 1 }, deps);
}

/** The alerts worker and the health monitor of a worker process; `close` stops both. */
export async function startAlerting(config: Config, ctx: QueueContext, logger: Logger): Promise<{ close(): Promise<void> }> {
  const deps = healthDeps(ctx, config, logger);
  const worker = await startAlertWorker({
    redis: config.redis,
    seal: requireSeal(config),
    watch: ctx.watch,
    deps: deliveryDeps(deps.alerts, config),
    logger,
  });
  const monitor = startHealthMonitor(deps, config.alerts.checkMs, logger);
  return {
    async close() {
      await monitor.stop();
      await worker.close();
    },
  };
}

/**
 * A scheduled sync that evaluates its chatbot's health once it returns: a refused or skipped
 * scheduled run is announced at once rather than at the next monitor pass. Best effort: a failed
 * evaluation is logged; the monitor tries again.
 */
export function evaluatingAfter(
  runSync: (payload: { chatbot: string }) => Promise<ScheduledRun>,
  deps: HealthDeps,
): (payload: { chatbot: string }) => Promise<ScheduledRun> {
  return async (payload) => {
    const result = await runSync(payload);
    await evaluateChatbot(deps, payload.chatbot).catch((err: unknown) =>
      deps.logger.warn(
        { chatbot: payload.chatbot, err: err instanceof Error ? err.message : String(err) },
        'could not evaluate the chatbot health',
      ),
    );
    return result;
  };
}
