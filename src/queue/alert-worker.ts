/**
 * The worker of the 'alerts' queue: each job runs through the kind registered for its name in
 * this queue (jobs/registry.ts; today jobs/deliver-alert.ts). A failure the kind calls final, or
 * one on the last attempt, is given to the kind's onFinalFailure and fails the job for good;
 * another is retried with the job's backoff. Failed deliveries stay in the queue (bull-board) and
 * in the delivery log.
 */
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { DeliverAlertDeps } from '../../jobs/deliver-alert.js';
import { jobKind } from '../../jobs/registry.js';
import { coerceError, errorCode } from '../shared/errors.js';
import { createScrubber } from '../shared/secret-scrub.js';
import type { Logger } from '../runtime/logger.js';
import { closeConnection, createWorkerConnection, type RedisSettings } from './connection.js';
import { QUEUE_NAMES, queueKeyName } from './queues.js';
import type { RedisWatch } from './redis-watch.js';
import { passGate } from './job-gate.js';
import type { JobSeal } from './job-seal.js';
import { contextOf } from './processor.js';

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

function processorOf(options: AlertWorkerOptions): (job: Job, token?: string) => Promise<unknown> {
  const { logger, seal } = options;
  const deps = { ...options.deps, logger };
  const gate = { seal, queue: QUEUE_NAMES.alerts, logger, told: new Set<string>() };
  const scrubber = createScrubber([]);
  return async (job, token) => {
    const payload = await passGate(job, token, gate);
    const kind = jobKind(QUEUE_NAMES.alerts, job.name);
    if (kind === undefined)
      throw new UnrecoverableError(`UNKNOWN_JOB: no processor for job name "${job.name}" in queue ${QUEUE_NAMES.alerts}`);
    const parsed = kind.schema.safeParse(payload);
    if (!parsed.success) throw new UnrecoverableError(`INVALID_JOB_DATA: not a valid ${kind.name} job`);
    const ctx = contextOf(job, parsed.data, token);
    try {
      return await kind.process(ctx, deps);
    } catch (thrown) {
      const error = coerceError(thrown);
      const final = kind.finalOn?.(thrown) === true;
      if (final || job.attemptsMade + 1 >= (job.opts.attempts ?? 1))
        await kind.onFinalFailure(ctx, deps, { code: errorCode(thrown), message: error.message });
      // The message names no URL (src/api/webhook.ts); scrubbed still (the registered webhook
      // secrets among them), since BullMQ stores it as the job's failure reason.
      const reason = scrubber.text(error.message);
      throw final ? new UnrecoverableError(reason) : new Error(reason);
    }
  };
}

/** Starts the alerts worker on a connection of its own. */
export async function startAlertWorker(options: AlertWorkerOptions): Promise<RunningAlertWorker> {
  const connection = createWorkerConnection(options.redis, options.watch);
  const worker = new Worker(queueKeyName(QUEUE_NAMES.alerts, connection), processorOf(options), {
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
