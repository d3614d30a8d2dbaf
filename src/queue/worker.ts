/**
 * Starts the workers of one process: the writes queue with the configured request limit (its
 * --concurrency, or a lease on the request permit pool under --global-concurrency: see
 * request-permits.ts) and rate limit, and (when a sync use case is injected) the sync-runs queue.
 *
 * Stall settings, deliberately (a stall — worker died or its event loop froze — is not an attempt):
 * - lockDuration 30 s: longer than any one request (the client's own timeouts are 30 s for
 *   headers and body) plus a lookup, so a slow but healthy job never looks stalled;
 * - stalledInterval 15 s: a SIGKILLed worker's jobs are picked up again within ~45 s;
 * - maxStalledCount 2: a job survives two worker deaths (a crash loop fails it instead of looping
 *   forever). A re-run after a stall has attemptsStarted > 1, so a create looks its key up
 *   first and never duplicates.
 * Tests shorten lockDuration/stalledInterval to keep the SIGKILL test quick.
 */
import { type Job, type Queue, Worker } from 'bullmq';
import type { JobDeps } from '../../jobs/support/job-context.js';
import type { RetryTable } from '../api/retry-policy.js';
import type { Logger } from '../runtime/logger.js';
import type { BackoffSettings } from '../net/backoff.js';
import { backoffStrategy } from './backoff.js';
import { ListingSyncError } from '../shared/errors.js';
import { checkEvictionPolicy, createWorkerConnection, RECONNECT_MAX_MS, type RedisSettings } from './connection.js';
import type { ErrorMappingContext } from './error-mapping.js';
import { finishedElsewhere } from './finished-elsewhere.js';
import { finishedHere, type FinishedHere } from './finished-here.js';
import { createProcessor, recordFinalFailure } from './processor.js';
import { openQueue, QUEUE_NAMES, queueKeyName } from './queues.js';
import { gatesOf } from './job-gate.js';
import type { JobSeal } from './job-seal.js';
import { tellWaitingTargets } from './waiting-targets.js';
import { heldGate, startQueueHold } from './queue-hold.js';
import { createRedisWatch, redisLabel, type RedisWatch } from './redis-watch.js';
import { gateApiClient, type RequestGate } from '../api/gated-client.js';
import { jobConcurrencyFor, localGate } from './request-gate.js';
import { serviceBreakerOf, type BreakerTiming } from './worker-breaker.js';
import { startRequestPermits, type RequestPermits } from './request-permits.js';
import { workerStopper, type WorkerParts } from './worker-shutdown.js';
import type { ApiClient } from '../api/client-contract.js';
import { permitPool } from '../store/permit-pool.js';
import { storeKeys } from '../store/keys.js';
import { layoutOf } from '../store/redis-client.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface StallSettings {
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
}

export const DEFAULT_STALL: Readonly<StallSettings> = { lockDurationMs: 30_000, stalledIntervalMs: 15_000, maxStalledCount: 2 };

export interface WorkerOptions {
  redis: RedisSettings;
  /** This process's job seal (job-seal.ts): what the jobs it runs must carry, and the jobs it adds get. */
  seal: JobSeal;
  /** Requests in flight to the service from this process (BullMQ runs a few more jobs, see request-gate.ts). */
  concurrency: number;
  /**
   * Requests in flight across every worker process: the size of the request permit pool
   * (request-permits.ts). BullMQ's own global concurrency is removed when it is set.
   */
  globalConcurrency?: number;
  /** Lease time to live in the permit pool (default DEFAULT_PERMIT_TTL_MS). */
  permitTtlMs?: number;
  /** A global cap on jobs started per duration, across workers. */
  rate?: { max: number; durationMs: number };
  backoff?: BackoffSettings;
  /**
   * Attempts per job in this worker (LISTING_SYNC_ATTEMPTS of this process): the failure of the
   * last one is final, whatever process enqueued the job (its own `attempts` is only a ceiling).
   */
  attempts?: number;
  /** The service breaker's thresholds and intervals (tests shorten them; default: service-breaker.ts). */
  breaker?: BreakerTiming;
  stall?: Partial<StallSettings>;
  /**
   * The configured retry table (config.api.retryTable): one table for the error mapping (retry
   * or fail a job) and for the reads jobs retry in place (a key lookup), added to their deps here.
   */
  retryTable: RetryTable;
  /** Queue-wide wait after a 429 without Retry-After (default 1000 ms). */
  defaultRateLimitMs?: number;
  /** Longest Retry-After honoured (default 60 s). */
  maxRateLimitMs?: number;
  /** What the jobs get, but the retry table (the worker adds `retryTable`). */
  deps: Omit<JobDeps, 'retryTable'>;
  logger: Logger;
  /** Reports Redis outages and BullMQ errors, one line per interval (default: a watch of its own on `logger`). */
  watch?: RedisWatch;
  /**
   * Aborted while the workers start (Redis not answering yet): start-up stops at once, closes what
   * it opened and rejects with code ABORTED.
   */
  signal?: AbortSignal;
  /**
   * Whether "workers started" is an info line (default): a `worker` process's first word. The
   * workers a command starts in its own process (`sync --work`) say it at debug, since the
   * command's own output is what its user reads.
   */
  announce?: boolean;
}

export const DEFAULT_PERMIT_TTL_MS = 10_000;

export interface RunningWorkers {
  writes: Worker;
  /**
   * The API client as the jobs call it: through this process's request limit (the permit pool
   * under --global-concurrency). A command whose own calls must count against it uses this one.
   */
  api: ApiClient;
  syncRuns?: Worker;
  /** The jobs of the writes queue this process finishes, by run (what ends a `sync --work` wait at once). */
  finished: FinishedHere;
  /**
   * Stops taking jobs, lets jobs in flight finish, closes the connections it opened. While Redis is
   * away it does not wait (see worker-shutdown.ts): it never hangs on Redis.
   */
  close(): Promise<void>;
}

const STALLED_OUT = /stalled more than allowable limit/i;

/** Why start-up ended early: the process was told to stop before Redis answered. */
const stoppedEarly = (): ListingSyncError => new ListingSyncError(ErrorCode.ABORTED, 'stopped before Redis answered');

/** Resolves as `step` does, or rejects as soon as `signal` is aborted. */
function unlessAborted<T>(step: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return step;
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(stoppedEarly());
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    step.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export async function startWorkers(options: WorkerOptions): Promise<RunningWorkers> {
  const { redis, logger, signal } = options;
  const stall = { ...DEFAULT_STALL, ...options.stall };
  const backoff = options.backoff ?? { baseMs: 1000, maxMs: 60_000 };
  const watch = options.watch ?? createRedisWatch(logger, { label: redisLabel(redis), intervalMs: RECONNECT_MAX_MS });
  const connections = [createWorkerConnection(redis, watch), createWorkerConnection(redis, watch), createWorkerConnection(redis, watch)];
  const [queueConnection, writesConnection, syncConnection] = connections as [
    (typeof connections)[0],
    (typeof connections)[0],
    (typeof connections)[0],
  ];
  const queue = openQueue(QUEUE_NAMES.writes, queueConnection, redis.prefix, options.seal);
  queue.on('error', (err) => watch.report(err, 'queue'));
  // A job BullMQ calls gone may have been finished by another start of it (finished-elsewhere.ts).
  watch.knowOutcomes(finishedElsewhere(queue, queueConnection, options.deps.store));
  const parts: WorkerParts = { workers: [], queue, connections, watch };
  const stop = workerStopper(parts);
  try {
    const started = await unlessAborted(
      startOn(queue, [writesConnection, syncConnection], parts, { ...options, stall, backoff, watch, queueConnection }),
      signal,
    );
    const limits = { concurrency: options.concurrency, globalConcurrency: options.globalConcurrency, rate: options.rate };
    if (options.announce === false) logger.debug(limits, 'workers started');
    else logger.info(limits, 'workers started');
    return { ...started, close: () => stop(false) };
  } catch (thrown) {
    // Why force: start-up failed or was stopped, most likely because Redis does not answer.
    await stop(true);
    throw thrown;
  }
}

type StartOptions = WorkerOptions & {
  stall: StallSettings;
  backoff: BackoffSettings;
  watch: RedisWatch;
  queueConnection: WorkerConnection;
};

/**
 * The request limit of this process: its own --concurrency, or under --global-concurrency a lease
 * on the permit pool (kept in `parts` so that the stop gives it back).
 */
async function requestLimit(queue: Queue, parts: WorkerParts, options: StartOptions): Promise<RequestLimit> {
  const { globalConcurrency: size, concurrency } = options;
  if (size === undefined) return { gate: localGate(concurrency), room: concurrency, follow: () => undefined };
  // Why removed: BullMQ's global concurrency counts active jobs, which also hold their slot during
  // their Redis bookkeeping (about 0.55 of G ÷ latency reached); the pool counts requests. An
  // earlier setting left on the queue would cap the jobs below what the permits allow.
  await queue.removeGlobalConcurrency();
  const connection = options.queueConnection;
  const permits: RequestPermits = startRequestPermits({
    pool: permitPool(connection, storeKeys(options.redis.prefix, layoutOf(connection))),
    size,
    room: concurrency,
    ttlMs: options.permitTtlMs ?? DEFAULT_PERMIT_TTL_MS,
    onError: (err) => options.watch.report(err, 'permits'),
  });
  parts.permits = permits;
  return {
    gate: (call) => permits.run(call),
    // Why from one permit: the jobs a process takes follow its share (below); it starts small and
    // doubles with each renewal while it has work, rather than taking 2 × G jobs that other
    // processes then cannot run (each active job also costs lock renewals and CPU).
    room: 1,
    follow: (writes) => permits.onGrant((granted) => void (writes.concurrency = jobConcurrencyFor(Math.max(1, granted)))),
  };
}

interface RequestLimit {
  /** This process's request limit. */
  gate: RequestGate;
  /** Requests this process may have in flight at first: BullMQ's prefetch is sized on it. */
  room: number;
  /** Keeps the writes worker's job concurrency at twice the permits this process holds. */
  follow: (writes: Worker) => void;
}

/** Checks the queue, creates the workers (pushed onto `parts.workers` as they are made) and waits until they are ready. */
async function startOn(
  queue: Queue,
  [writesConnection, syncConnection]: [WorkerConnection, WorkerConnection],
  parts: WorkerParts,
  options: StartOptions,
): Promise<Omit<RunningWorkers, 'close'>> {
  const { redis, logger, stall, backoff, watch, retryTable } = options;
  const { workers } = parts;
  await checkEvictionPolicy(writesConnection, logger);
  const { gate, room, follow } = await requestLimit(queue, parts, options);
  const hold = startQueueHold({
    queue,
    pttl: () => options.queueConnection.pttl(queue.toKey('limiter')),
    onError: (err) => options.watch.report(err, 'hold'),
  });
  parts.hold = hold;
  const breaker = serviceBreakerOf(hold, gate, options);
  parts.breaker = breaker;
  // The breaker inside the limit: a call refused while the service is down never waits for a slot.
  const api = gateApiClient(
    options.deps.api,
    heldGate(hold, (call, chatbot) => gate(() => breaker.run(call, chatbot), chatbot)),
  );
  const deps: JobDeps = { ...options.deps, retryTable, api };
  if (await queue.isPaused())
    logger.warn(
      `queue ${QUEUE_NAMES.writes} is paused (an authentication failure?): run \`listing-sync jobs resume\` once the credentials are fixed`,
    );
  // Stopped while waiting for Redis: make no workers the stop would not know about.
  if (options.signal?.aborted) throw stoppedEarly();

  const mapping: ErrorMappingContext = { queue, hold, logger, retryTable, defaultRateLimitMs: options.defaultRateLimitMs ?? 1000, breaker };
  if (options.maxRateLimitMs !== undefined) mapping.maxRateLimitMs = options.maxRateLimitMs;
  const gateOf = gatesOf(options.seal, logger);
  await tellWaitingTargets(queue, options.seal.target, logger, gateOf(QUEUE_NAMES.writes).told);
  const processor = createProcessor(deps, mapping, gateOf(QUEUE_NAMES.writes), options.attempts);
  const common = {
    prefix: redis.prefix,
    lockDuration: stall.lockDurationMs,
    stalledInterval: stall.stalledIntervalMs,
    maxStalledCount: stall.maxStalledCount,
    // Why: after a failed fetch BullMQ waits runRetryDelay (15 s by default) before fetching again;
    // once Redis is back, work should carry on within a second, not 15 s later. (While Redis is
    // away fetches wait for the reconnect rather than fail, so this never spins.)
    runRetryDelay: 1000,
    settings: { backoffStrategy: backoffStrategy(backoff) },
  };
  const writes = new Worker(queueKeyName(QUEUE_NAMES.writes, writesConnection), processor, {
    ...common,
    connection: writesConnection,
    concurrency: jobConcurrencyFor(room),
    // Why no limiter without --rate: the queue's holds are kept by `hold` (queue-hold.ts), and a
    // limiter costs every job's fetch GET + HEXISTS + INCR.
    ...(options.rate ? { limiter: { max: options.rate.max, duration: options.rate.durationMs } } : {}),
  });
  workers.push(writes);
  follow(writes);
  let syncRuns: Worker | undefined;
  if (deps.runSync !== undefined) {
    // Why without the breaker: a scheduled sync's reads are its own (not through the breaker), and
    // holding the writes queue for them would put the sync back to spin against a down service.
    const syncProcessor = createProcessor(deps, { ...mapping, breaker: undefined }, gateOf(QUEUE_NAMES.syncRuns), options.attempts);
    syncRuns = new Worker(queueKeyName(QUEUE_NAMES.syncRuns, syncConnection), syncProcessor, {
      ...common,
      connection: syncConnection,
      concurrency: 1,
    });
    workers.push(syncRuns);
  }
  for (const worker of workers) {
    // Why through the watch: during an outage BullMQ emits an 'error' per failed attempt and connection.
    worker.on('error', (err) => watch.report(err, 'worker'));
    // Why: a job that stalled more than maxStalledCount is failed by BullMQ without our
    // processor running; record it here so the run's counts and failed keys stay complete.
    worker.on('failed', (job: Job | undefined, err: Error) => {
      if (job && STALLED_OUT.test(err.message)) void recordFinalFailure(job, { code: ErrorCode.STALLED, message: err.message }, deps);
    });
  }
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  return { writes, api, finished: finishedHere(writes), ...(syncRuns ? { syncRuns } : {}) };
}

type WorkerConnection = ReturnType<typeof createWorkerConnection>;
