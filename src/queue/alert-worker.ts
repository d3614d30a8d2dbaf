/**
 * The worker of the 'alerts' queue: each job posts one alert (jobs/deliver-alert.ts). A webhook
 * that answers 5xx/408/429, times out or cannot be reached is retried with the job's backoff; one
 * that answers another 4xx (a removed Slack webhook answers 404/410) fails at once, since
 * retrying cannot help. Failed deliveries stay in the queue (bull-board) and in the delivery log.
 */
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { deliverAlert, deliverAlertDataSchema, type DeliverAlertDeps } from '../../jobs/deliver-alert.js';
import { coerceError } from '../shared/errors.js';
import { createScrubber } from '../shared/secret-scrub.js';
import type { Logger } from '../runtime/logger.js';
import { closeConnection, createWorkerConnection, type RedisSettings } from './connection.js';
import { QUEUE_NAMES, queueKeyName } from './queues.js';
import type { RedisWatch } from './redis-watch.js';
import { passGate } from './job-gate.js';
import type { JobSeal } from './job-seal.js';

export interface AlertWorkerOptions {
  redis: RedisSettings;
  watch: RedisWatch;
  deps: DeliverAlertDeps;
  logger: Logger;
  /** What each delivery must be sealed with (job-seal.ts): a webhook post listing-sync did not enqueue is never sent. */
  seal: JobSeal;
}

export interface RunningAlertWorker {
  close(): Promise<void>;
}

/** Webhooks are slow compared with Redis: a few deliveries in flight keep one slow hook from delaying the rest. */
const ALERT_CONCURRENCY = 4;

function processorOf(deps: DeliverAlertDeps, logger: Logger, seal: JobSeal): (job: Job, token?: string) => Promise<string> {
  const gate = { seal, queue: QUEUE_NAMES.alerts, logger, told: new Set<string>() };
  const scrubber = createScrubber([]);
  return async (job, token) => {
    const parsed = deliverAlertDataSchema.safeParse(await passGate(job, token, gate));
    if (!parsed.success) throw new UnrecoverableError('INVALID_JOB_DATA: not an alert delivery');
    try {
      return await deliverAlert(parsed.data, { attempt: job.attemptsMade + 1, ...(job.id === undefined ? {} : { jobId: job.id }) }, deps);
    } catch (thrown) {
      const error = coerceError(thrown);
      const retryable = 'retryable' in error && error.retryable === true;
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!retryable || last)
        logger.warn(
          { job: job.id, alert: parsed.data.alert, chatbot: parsed.data.message.chatbot, err: error.message },
          `alert ${parsed.data.alert} could not be delivered: ${error.message}`,
        );
      // The message names no URL (src/api/webhook.ts); scrubbed still (the registered webhook
      // secrets among them), since BullMQ stores it as the job's failure reason.
      const reason = scrubber.text(error.message);
      throw retryable ? new Error(reason) : new UnrecoverableError(reason);
    }
  };
}

/** Starts the alerts worker on a connection of its own. */
export async function startAlertWorker(options: AlertWorkerOptions): Promise<RunningAlertWorker> {
  const connection = createWorkerConnection(options.redis, options.watch);
  const worker = new Worker(queueKeyName(QUEUE_NAMES.alerts, connection), processorOf(options.deps, options.logger, options.seal), {
    connection,
    prefix: options.redis.prefix,
    concurrency: ALERT_CONCURRENCY,
  });
  worker.on('error', (err) => options.watch.report(err, 'worker'));
  await worker.waitUntilReady();
  return {
    async close() {
      // Why force while Redis is away: a delivery in flight cannot record its outcome anyway (see worker-shutdown.ts).
      if (!options.watch.isUp()) connection.disconnect();
      await worker.close(!options.watch.isUp()).catch(() => undefined);
      await closeConnection(connection);
    },
  };
}
