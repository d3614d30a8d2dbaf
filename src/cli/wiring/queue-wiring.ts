/**
 * Composition for the queue side: Redis connections, store and queues from Config, the recorded
 * API client, the sync use case's dependencies and this process's workers. Used by the worker,
 * runs, jobs and schedule commands, `sync`, `chatbot edit --many` and the demo.
 */
import { loadDisplayPolicyFile, testClock } from './display-policy-file.js';
import { sendWindowMs } from '../../../jobs/support/send-window.js';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { RedisClient } from '../../store/redis-client.js';
import type { ApiClient } from '../../api/client-contract.js';
import { requireApiBase, type Config } from '../../config/config.js';
import { secretValues } from '../../config/config-display.js';
import { createScrubber } from '../../shared/secret-scrub.js';
import { newRunId } from '../../domain/job-id.js';
import { silentLogger, type Logger } from '../../runtime/logger.js';
import { createClientFromConfig } from './api-wiring.js';
import {
  closeConnection,
  connectProducer,
  connectSessionConnection,
  createProducerConnection,
  createWorkerConnection,
  RECONNECT_MAX_MS,
} from '../../queue/connection.js';
import { createRedisWatch, redisLabel, type RedisWatch } from '../../queue/redis-watch.js';
import { startWorkers, type RunningWorkers, type StallSettings } from '../../queue/worker.js';
import { ATTEMPTS_CEILING, type EnqueueOptions, type JobQueueSettings } from '../../queue/enqueue.js';
import { openQueues, type QueueSealing } from '../../queue/queues.js';
import { requireSeal, sealingOf } from './job-seal-wiring.js';
import { createCallRecorder, type CallRecorder } from '../../store/call-metrics.js';
import { createStore } from '../../store/store.js';
import type { SyncDeps } from '../../sync/sync-deps.js';
import { scheduledRunSync } from '../../sync/scheduled-run.js';
import { syncLease } from '../../sync/sync-lease.js';
import { syncStores } from '../../sync/sync-stores.js';
import { openPlanSpool } from '../../sync/plan-spool.js';
import { filePhotoWiring } from './photo-wiring.js';
import { replicationWiring } from './replication-wiring.js';
import { startWorkerUpkeep } from './worker-upkeep.js';
import { evaluatingAfter, healthDeps, learnWebhookSecrets, startAlerting } from './alert-wiring.js';
import type { QueueContext } from './queue-context.js';

/**
 * How a command holds Redis:
 * - 'producer': a short command (enqueue, list runs): Redis down is one clear error, at once;
 * - 'session': a command someone just typed that then runs for long (`sync --work`, `--wait`,
 *   `chatbot edit --many --work`, the demo): Redis down at start is one clear error, but once
 *   connected it waits through outages and restarts and carries on;
 * - 'worker': a daemon (`worker`): waits for Redis also at start, saying so once per interval.
 */
export type QueueRole = 'producer' | 'session' | 'worker';

/** A Redis watch logging through `logger` (silent without one). */
export function createProcessWatch(config: Config, logger: Logger | undefined): RedisWatch {
  return createRedisWatch(logger ?? silentLogger(), { label: redisLabel(config.redis), intervalMs: RECONNECT_MAX_MS });
}

async function connectFor(config: Config, role: QueueRole, watch: RedisWatch): Promise<RedisClient> {
  const target = config.redis;
  if (role === 'producer') return await connectProducer(createProducerConnection(target));
  if (role === 'session') return await connectSessionConnection(target, watch);
  return createWorkerConnection(target, watch);
}

/** Opens store and queues over one connection held as `role` says; `logger` hears about outages. */
export async function openQueueContext(config: Config, role: QueueRole, logger?: Logger): Promise<QueueContext> {
  const watch = createProcessWatch(config, logger);
  const ctx = queueContextOn(await connectFor(config, role, watch), config, watch);
  // Why only while Redis answers: down at start, the read would wait for it, and the command must
  // still report the outage and stop promptly; the store registers each webhook as it reads one.
  if (watch.isUp()) await learnWebhookSecrets(ctx, config);
  return ctx;
}

/**
 * Store and queues over an open connection, whose outages `watch` reports; the jobs its queues
 * add are sealed for this process's service (`sealing`: default from config).
 */
export function queueContextOn(
  redis: RedisClient,
  config: Config,
  watch: RedisWatch,
  sealing: QueueSealing = sealingOf(config),
): QueueContext {
  const store = createStore(redis, config.redis.prefix);
  const queues = openQueues(redis, config.redis.prefix, sealing);
  // Why a listener: BullMQ prints an 'error' event nobody listens to as a stack trace.
  for (const queue of [queues.writes, queues.syncRuns, queues.alerts]) queue.on('error', (err) => watch.report(err, 'queue'));
  return {
    redis,
    store,
    queues,
    watch,
    async close() {
      // Why: with Redis away (a cluster master lost until its replica takes over), a command still
      // pending would hold the close for the connection's whole minute of retries; dropped, it fails now.
      if (!watch.isUp()) {
        redis.disconnect();
        // The queues' pending commands then fail with "Connection is closed": nothing to report.
        await queues.close().catch(() => undefined);
        return;
      }
      await queues.close();
      await closeConnection(redis);
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
 * `flushMs` (default 5 s) and on close, so the dashboard process can serve them. With `watch`
 * (the process's Redis watch), close does not wait for a Redis that is away.
 */
export function createRecordedClient(
  config: Config,
  logger: Logger,
  redis: RedisClient,
  options: { flushMs?: number; watch?: RedisWatch } = {},
): RecordedClient {
  requireApiBase(config); // before the recorder starts its timer
  const recorder = createCallRecorder(redis, config.redis.prefix, {
    ...(options.flushMs === undefined ? {} : { flushMs: options.flushMs }),
    onError: (err, closing) =>
      logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        closing
          ? 'the last call metrics could not be saved to Redis'
          : 'could not save call metrics to Redis; they are kept and sent once it answers',
      ),
  });
  const api = createClientFromConfig(config, logger, 'api', (event) => recorder.observe(event));
  return {
    api,
    recorder,
    async close() {
      await api.close();
      const flushed = recorder.close();
      await (options.watch ? unlessRedisAway(flushed, options.watch) : flushed);
    },
  };
}

/**
 * Resolves when `work` settles, or as soon as Redis is (or goes) away. Why: a stopping process
 * must not wait for a Redis that may never come back; the connection's close then fails `work`.
 */
function unlessRedisAway(work: Promise<void>, watch: RedisWatch): Promise<void> {
  if (!watch.isUp()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = watch.onDown(() => resolve());
    void work.then(resolve, resolve).finally(unsubscribe);
  });
}

/**
 * The queue's job settings from Config. Completed jobs go as they complete by default
 * (LISTING_SYNC_KEEP_COMPLETED 0); kept ones, and failed jobs, go by age as well as by count
 * (BullMQ removes a job once either limit is passed). Why failed jobs are kept for the whole retention
 * window: ops retry them from the dashboard while the run they belong to is still on record,
 * and a tombstone that protects against a stale retry ages out after the same window.
 */
export function jobSettings(config: Config): JobQueueSettings {
  const { retention } = config;
  return {
    attempts: ATTEMPTS_CEILING,
    backoffMs: config.jobs.backoffMs,
    // Why `true` for 0: BullMQ then deletes the job as it completes (one DEL), never touching the
    // completed set; an age with a count of 0 would do the same, less plainly.
    keepCompleted: config.jobs.keepCompleted === 0 ? true : { age: retention.completedJobHours * 3600, count: config.jobs.keepCompleted },
    keepFailed: { age: retention.keepDays * 86_400, count: config.jobs.keepFailed },
    deleteBatchSize: config.jobs.deleteBatchSize,
    listingsPerJob: config.jobs.listingsPerJob,
  };
}

/** How a sync's enqueue runs besides the defaults: where its chunks go, and at what pace. */
export type EnqueueRoute = Pick<EnqueueOptions, 'sink' | 'pace' | 'signal'>;

/** How a command wants its syncs wired (syncDeps). */
export interface SyncWiringOptions {
  /** Where the enqueue's chunks go and at what pace (default: added here, at once). */
  route?: EnqueueRoute;
  /** The feed is large or of unknown size (heap-growth.ts `heapPolicyPays`): its plan is spooled from the first write. */
  largeFeed?: boolean;
}

/** The display policy's clock: the real one, unless a test set LISTING_SYNC_NOW. */
function policyClock(): Pick<SyncDeps, 'policyNow'> {
  const clock = testClock();
  return clock === undefined ? {} : { policyNow: clock };
}

/**
 * Everything runSync needs, wired to this process's store, queue and API client; `route` says
 * where the enqueue's chunks go when not added in this thread (threaded-enqueue.ts) and at what
 * pace (enqueue-pace.ts).
 */
export function syncDeps(api: ApiClient, ctx: QueueContext, config: Config, logger: Logger, options: SyncWiringOptions = {}): SyncDeps {
  const { route = {}, largeFeed = false } = options;
  return {
    api,
    retryTable: config.api.retryTable,
    lease: syncLease(ctx.store, ctx.queues.writes),
    stores: syncStores(ctx.store),
    enqueue: { writes: ctx.queues.writes, store: ctx.store, jobs: jobSettings(config), ...route },
    // tmpdir() at each sync: TMPDIR, else /tmp. Why a large feed's plan goes to the file from its
    // first write: held in memory up to IN_MEMORY_WRITES first, a 100k-listing migration peaked
    // 10–15 MiB higher (bench:sync), and the time the file costs is small beside such a run's.
    openPlanSpool: () => openPlanSpool(tmpdir(), largeFeed ? { inMemoryUpTo: 0 } : {}),
    logger,
    now: () => Date.now(),
    ...policyClock(),
    loadDisplayPolicy: loadDisplayPolicyFile,
    newRunId: () => newRunId(Date.now(), randomBytes(4).toString('hex')),
    feedLimits: config.feed,
    replicationFor: replicationWiring({ config, store: ctx.store, logger }),
    photosFor: filePhotoWiring({ config, store: ctx.store }),
  };
}

/**
 * Starts this process's workers with the limits, backoff and retry table from Config; their Redis
 * outages are reported through the context's watch. Aborting `signal` while they wait for Redis
 * stops the start-up (it rejects with code ABORTED).
 */
export async function startConfiguredWorkers(
  config: Config,
  api: ApiClient,
  ctx: QueueContext,
  logger: Logger,
  stall: Partial<StallSettings> = {},
  signal?: AbortSignal,
  announce = true,
): Promise<RunningWorkers> {
  const workers = await startWorkers({
    announce,
    seal: requireSeal(config),
    redis: config.redis,
    watch: ctx.watch,
    ...(signal === undefined ? {} : { signal }),
    concurrency: config.worker.concurrency,
    ...(config.worker.globalConcurrency === undefined ? {} : { globalConcurrency: config.worker.globalConcurrency }),
    permitTtlMs: config.worker.permitTtlMs,
    ...(config.worker.rate === undefined ? {} : { rate: config.worker.rate }),
    backoff: { baseMs: config.jobs.backoffMs, maxMs: config.jobs.backoffMaxMs },
    attempts: config.jobs.attempts,
    stall,
    retryTable: config.api.retryTable,
    deps: {
      api,
      store: ctx.store,
      logger,
      now: () => Date.now(),
      sendWindowMs: sendWindowMs(config.api.timeouts),
      scrubber: createScrubber(secretValues(config)),
      runSync: evaluatingAfter(scheduledRunSync(syncDeps(api, ctx, config, logger), ctx.store.runs), healthDeps(ctx, config, logger)),
    },
    logger,
  });
  const reconciler = startWorkerUpkeep(ctx, config, logger);
  // Jobs gone from the queue end their run only through the reconciler: it hurries (reconciler.ts).
  const stopHurrying = ctx.watch.onJobGone(() => reconciler.hurry());
  const alerting = await startAlerting(config, ctx, logger).catch(async (thrown: unknown) => {
    stopHurrying();
    await reconciler.stop();
    await workers.close();
    throw thrown;
  });
  return {
    ...workers,
    async close() {
      stopHurrying();
      await reconciler.stop();
      await workers.close();
      // Last: the write workers stop taking jobs as promptly as before, and an alert their last jobs led to may still go out.
      await alerting.close();
    },
  };
}
