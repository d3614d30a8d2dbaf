/**
 * Composition for the queue side: Redis connections, store and queues from Config, and the
 * adapters that let the sync use case (src/sync/run-sync.ts) save runs and enqueue plans through
 * src/store and src/queue. Used by the worker/runs/jobs/schedule commands and by `sync`.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RunSyncFn } from '../../jobs/job-context.js';
import type { ApiClient } from '../api/client-contract.js';
import { requireApiBase, type Config } from '../config.js';
import { newRunId } from '../domain/job-id.js';
import type { Logger } from '../logger.js';
import { createClientFromConfig } from './api-wiring.js';
import { connectProducer, createProducerConnection, createWorkerConnection } from '../queue/connection.js';
import { startWorkers, type RunningWorkers, type StallSettings } from '../queue/worker.js';
import { enqueueRunJobs, type EnqueueOptions, type JobQueueSettings } from '../queue/enqueue.js';
import { openQueues, type Queues } from '../queue/queues.js';
import { createCallRecorder, type CallRecorder } from '../store/call-metrics.js';
import type { NewRun, RunTrigger } from '../store/run-types.js';
import { createStore, type Store } from '../store/store.js';
import { runSync, type SyncDeps, type SyncRequest, type SyncStores } from '../sync/run-sync.js';
import type { SyncOutcome } from '../sync/summary.js';

export interface QueueContext {
  redis: Redis;
  store: Store;
  queues: Queues;
  /** Closes the queues, then the connection (BullMQ never closes connections it was given). */
  close(): Promise<void>;
}

/**
 * Opens store and queues over one connection. `role` 'producer' fails fast when Redis is down
 * (CLI reads and enqueues); 'worker' waits through reconnects (long-running processes).
 */
export async function openQueueContext(config: Config, role: 'producer' | 'worker'): Promise<QueueContext> {
  const redis = role === 'producer' ? await connectProducer(createProducerConnection(config.redis.url)) : createWorkerConnection(config.redis.url);
  const store = createStore(redis, config.redis.prefix);
  const queues = openQueues(redis, config.redis.prefix);
  return {
    redis, store, queues,
    async close() {
      await queues.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** An API client whose calls are counted for the dashboard's /metrics, and the recorder that counts them. */
export interface RecordedClient {
  api: ApiClient;
  recorder: CallRecorder;
  /** Closes the client, then flushes and stops the recorder. Call before the Redis connection quits. */
  close(): Promise<void>;
}

/**
 * The ApiClient for a process that makes service calls (worker, sync --work, chatbot edit --many
 * --work, demo), recording every call into Redis under the configured prefix, flushed every
 * `flushMs` (default 5 s) and on close, so the dashboard process can serve them.
 */
export function createRecordedClient(config: Config, logger: Logger, redis: Redis, options: { flushMs?: number } = {}): RecordedClient {
  requireApiBase(config); // before the recorder starts its timer
  const recorder = createCallRecorder(redis, config.redis.prefix, {
    ...options,
    onError: (err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not flush call metrics to Redis; kept for the next flush'),
  });
  const api = createClientFromConfig(config, logger, 'api', (event) => recorder.observe(event));
  return {
    api, recorder,
    async close() {
      await api.close();
      await recorder.close();
    },
  };
}

/**
 * The queue's job settings from Config. Finished jobs go by age as well as by count (BullMQ
 * removes a job once either limit is passed). Why failed jobs are kept for the whole retention
 * window: ops retry them from the dashboard while the run they belong to is still on record,
 * and a tombstone that protects against a stale retry ages out after the same window.
 */
export function jobSettings(config: Config): JobQueueSettings {
  const { retention } = config;
  return {
    attempts: config.jobs.attempts,
    backoffMs: config.jobs.backoffMs,
    keepCompleted: { age: retention.completedJobHours * 3600, count: config.jobs.keepCompleted },
    keepFailed: { age: retention.keepDays * 86_400, count: config.jobs.keepFailed },
    deleteBatchSize: config.jobs.deleteBatchSize,
  };
}

const TRIGGERS: readonly RunTrigger[] = ['cli', 'schedule', 'demo'];

/** The run record a sync outcome starts (refused runs are final at once). */
export function runFromOutcome(outcome: SyncOutcome): NewRun {
  const { summary } = outcome;
  const refused = !summary.guard.ok;
  const run: NewRun = {
    id: summary.runId,
    chatbot: summary.chatbot,
    trigger: TRIGGERS.find((t) => t === summary.trigger) ?? 'cli',
    forced: summary.guard.forced,
    status: refused ? 'refused' : 'running',
    startedAt: Date.parse(summary.startedAt),
    summary,
    rejected: outcome.rejected,
  };
  if (refused) run.finishedAt = summary.finishedAt === undefined ? Date.now() : Date.parse(summary.finishedAt);
  return run;
}

/** SyncStores over the Redis store. */
export function syncStores(store: Store): SyncStores {
  return {
    readLedger: (chatbot, index, positions) => store.ledger.readLedgerByPosition(chatbot, index, positions),
    failedKeys: async (chatbot) => new Set((await store.failedKeys.failedKeys(chatbot)).keys()),
    async lastSuccessfulFeedRows(chatbot) {
      const run = await store.runs.lastSuccessfulRun(chatbot);
      const rows = (run?.summary as { feed?: { rows?: unknown } } | undefined)?.feed?.rows;
      return typeof rows === 'number' ? rows : undefined;
    },
    saveRun: (outcome) => store.runs.createRun(runFromOutcome(outcome)),
    adopt: (chatbot, runId, listings) =>
      store.ledger.adopt(chatbot, listings.map(({ key, hash, remoteId }) => ({ key, entry: { hash, remoteId, writtenAt: Date.now(), runId } }))),
  };
}

/** Everything runSync needs, wired to this process's store, queue and API client. */
export function syncDeps(api: ApiClient, ctx: QueueContext, config: Config, logger: Logger): SyncDeps {
  const enqueue: EnqueueOptions = { writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config) };
  return {
    api,
    stores: syncStores(ctx.store),
    enqueuer: { enqueue: (plan, runId) => enqueueRunJobs(plan, runId, enqueue) },
    logger,
    now: () => Date.now(),
    newRunId: () => newRunId(Date.now(), randomBytes(4).toString('hex')),
    feedLimits: config.feed,
  };
}

/** The sync-run job's injected use case: the stored request, run with trigger 'schedule'. */
export function scheduledRunSync(api: ApiClient, ctx: QueueContext, config: Config, logger: Logger): RunSyncFn {
  return async (request) => {
    // The payload was built by toSyncRequest when the schedule was added; only `chatbot` was checked by the job.
    const syncRequest = { ...(request as unknown as SyncRequest), trigger: 'schedule' as const, dryRun: false };
    return await runSync(syncDeps(api, ctx, config, logger), syncRequest);
  };
}

/** Starts this process's workers with the limits, backoff and retry table from Config. */
export async function startConfiguredWorkers(
  config: Config,
  api: ApiClient,
  ctx: QueueContext,
  logger: Logger,
  stall: Partial<StallSettings> = {},
): Promise<RunningWorkers> {
  return await startWorkers({
    redis: config.redis,
    concurrency: config.worker.concurrency,
    ...(config.worker.globalConcurrency === undefined ? {} : { globalConcurrency: config.worker.globalConcurrency }),
    ...(config.worker.rate === undefined ? {} : { rate: config.worker.rate }),
    backoff: { baseMs: config.jobs.backoffMs, maxMs: config.jobs.backoffMaxMs },
    stall,
    retryTable: config.api.retryTable,
    deps: { api, store: ctx.store, logger, now: () => Date.now(), runSync: scheduledRunSync(api, ctx, config, logger) },
    logger,
  });
}

/** Deletes every key under the demo's own prefix so each demo starts from nothing (SCAN, never KEYS). */
export async function cleanDemoPrefix(url: string, prefix: string): Promise<void> {
  const redis = createProducerConnection(url);
  try {
    await connectProducer(redis);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
