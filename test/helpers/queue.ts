/**
 * A queue test bench: the simulator over HTTP, a real API client, a store and queues under a
 * unique prefix, workers started on demand, plans built with the real planner. Everything it
 * opens is closed by `close()`; the prefix is cleaned when the test passed.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, inject } from 'vitest';
import { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { listingHash } from '../../src/domain/hash.js';
import { newRunId } from '../../src/domain/job-id.js';
import type { ListingFields, ListingWrite } from '../../src/domain/listing.js';
import type { Plan, PlanInMemory } from '../../src/domain/plan.js';
import { planSync } from '../../src/domain/planner.js';
import { silentLogger, type Logger } from '../../src/runtime/logger.js';
import { syncStores } from '../../src/sync/sync-stores.js';
import { holdingChatbot } from '../../src/sync/hold-chatbot.js';
import { syncLease } from '../../src/sync/sync-lease.js';
import { enqueueRunJobs, type ChunkSink, type JobQueueSettings } from '../../src/queue/enqueue.js';
import type { EnqueuePace } from '../../src/queue/enqueue-pace.js';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { startWorkers, type RunningWorkers, type WorkerOptions } from '../../src/queue/worker.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { startSimulator, type RunningSimulator, type SimOptions } from '../../src/sim/server.js';
import { createStore, type Store } from '../../src/store/store.js';
import { feedSummary, planCounts, type RejectedRow, type SyncOutcome } from '../../src/sync/summary.js';
import { cleanPrefix, uniquePrefix } from './redis.js';
import { sealFor } from './job-seal.js';
import type { JobSeal } from '../../src/queue/job-seal.js';

export const TEST_JOB_SETTINGS: JobQueueSettings = {
  attempts: 10,
  backoffMs: 5,
  keepCompleted: false,
  keepFailed: false,
  deleteBatchSize: 100,
};
export const FAST_WORKER = { backoff: { baseMs: 5, maxMs: 40 }, defaultRateLimitMs: 20, maxRateLimitMs: 20 } as const;

export interface QueueBench {
  url: string;
  prefix: string;
  sim: RunningSimulator;
  api: ApiClient;
  redis: Redis;
  store: Store;
  queues: Queues;
  logger: Logger;
  /** What the bench's queues seal jobs with and its workers check them with: the simulator's service. */
  seal: JobSeal;
  /** Starts workers in this process (closed by close()); `client` replaces the bench's API client. */
  work(options?: Partial<Omit<WorkerOptions, 'deps' | 'redis' | 'logger'>>, client?: ApiClient): Promise<RunningWorkers>;
  /** Plans feed vs the simulator's current listings + the ledger, with the real planner. */
  plan(chatbot: string, feed: readonly ListingWrite[], extra?: { retryFailed?: boolean }): Promise<PlanInMemory>;
  /** Enqueues a plan as a new run, the way a sync does (see enqueueAsSync); returns the run id. */
  enqueue(plan: Plan, runId?: string): Promise<string>;
  close(passed: boolean): Promise<void>;
}

let clock = Date.now();
/** A fresh run id, later than every earlier one in this process. */
export function nextRunId(): string {
  clock = Math.max(clock + 1, Date.now());
  return newRunId(clock, randomBytes(4).toString('hex'));
}

function fieldsOf(listing: ListingWrite): ListingFields {
  const { SerialNumber: _serial, ...fields } = listing;
  return fields;
}

export async function openQueueBench(url: string, simOptions: SimOptions = {}, label = 'queue'): Promise<QueueBench> {
  const prefix = uniquePrefix(label);
  const sim = await startSimulator(simOptions);
  const api = createApiClient({
    baseUrl: sim.baseUrl,
    siteUrl: sim.siteUrl,
    credentials: sim.credentials,
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
  });
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  const store = createStore(redis, prefix);
  const seal = sealFor(sim.baseUrl, sim.credentials);
  const queues = openQueues(redis, prefix, seal);
  const logger = silentLogger();
  const running: RunningWorkers[] = [];
  return {
    url,
    prefix,
    sim,
    api,
    redis,
    store,
    queues,
    logger,
    seal,
    async work(options = {}, client = api) {
      const workers = await startWorkers({
        redis: { url, prefix },
        seal,
        concurrency: 8,
        ...FAST_WORKER,
        retryTable: DEFAULT_RETRY_TABLE,
        ...options,
        deps: { api: client, store, logger, now: () => Date.now() },
        logger,
      });
      running.push(workers);
      return workers;
    },
    async plan(chatbot, feed, extra = {}) {
      const remote = sim.state.listings(chatbot).map((l) => ({ id: l.ID, fields: fieldsOf(l) }));
      const ledger = await store.ledger.readLedger(chatbot, 'MLSNumber');
      const retryKeys = extra.retryFailed ? new Set((await store.failedKeys.failedKeys(chatbot, 'MLSNumber')).keys()) : undefined;
      const feedMap = new Map(feed.map((l) => [l.MLSNumber, fieldsOf(l)]));
      return planSync({
        chatbot,
        keyType: 'MLSNumber',
        mode: 'mirror',
        deleteScope: 'all',
        feed: feedMap,
        remote,
        ledger,
        ...(retryKeys ? { retryKeys } : {}),
      }).plan;
    },
    async enqueue(plan, runId = nextRunId()) {
      return await enqueueAsSync({ store, queues }, plan, { runId });
    },
    async close(passed) {
      await Promise.all(running.map((w) => w.close()));
      await queues.close();
      await api.close();
      await sim.close();
      await redis.quit();
      if (passed) await cleanPrefix(url, prefix);
    },
  };
}

/** The run a test enqueues: what its summary says about the feed, and how its jobs are queued. */
export interface SyncedRun {
  /** Default: a fresh one (nextRunId). */
  runId?: string;
  /** The feed the summary names. Default: a native feed of exactly the plan's valid rows, none rejected. */
  feed?: { source: string; profile: string; rows: number; rejected: RejectedRow[] };
  /** Default true: hold the chatbot's lease while enqueueing, as a sync does; false for tests that enqueue two runs of one chatbot at once. */
  holdChatbot?: boolean;
  /** Default: TEST_JOB_SETTINGS. */
  jobs?: JobQueueSettings;
  /** Where the chunks go (default: added in this thread). */
  sink?: ChunkSink;
  /** When each chunk may go in (default: at once). */
  pace?: EnqueuePace;
}

/** What runSync returns for `plan` when the guard passed (feed stats as `feed` says; the remote read whole). */
function outcomeOf(plan: Plan, runId: string, feed: SyncedRun['feed']): SyncOutcome {
  const valid = plan.creates.length + plan.updates.length + plan.unchanged;
  const { source, profile, rows, rejected } = feed ?? { source: 'test-feed.json', profile: 'native', rows: valid, rejected: [] };
  const stats = { rows, valid: rows - rejected.length, rejected: rejected.length, excluded: 0, duplicates: 0, filledDefaults: {} };
  const listings = plan.updates.length + plan.unchanged + plan.deletes.length;
  return {
    summary: {
      runId,
      chatbot: plan.chatbot,
      dryRun: false,
      trigger: 'cli',
      startedAt: new Date().toISOString(),
      feed: feedSummary(source, profile, stats),
      remote: { listings, virtualCount: listings, complete: true, incompleteReasons: [], duplicates: 0, unkeyed: 0 },
      plan: planCounts(plan),
      guard: { ok: true, reasons: [], forced: false },
    },
    plan,
    rejected,
    remoteDuplicates: [],
    remoteUnkeyed: [],
  };
}

/**
 * Enqueues `plan` through what a sync runs (runSync with syncDeps): the run record is saved from
 * the sync's outcome (`saveRun`: status enqueuing, summary and rejected rows), then
 * `enqueueRunJobs` adds the jobs and seals the run. Returns the run id.
 */
export async function enqueueAsSync(bench: Pick<QueueBench, 'store' | 'queues'>, plan: Plan, run: SyncedRun = {}): Promise<string> {
  const runId = run.runId ?? nextRunId();
  const enqueue = async (): Promise<void> => {
    await syncStores(bench.store).saveRun(outcomeOf(plan, runId, run.feed));
    await enqueueRunJobs(plan, runId, {
      writes: bench.queues.writes,
      store: bench.store,
      jobs: run.jobs ?? TEST_JOB_SETTINGS,
      ...(run.sink ? { sink: run.sink } : {}),
      ...(run.pace ? { pace: run.pace } : {}),
    });
  };
  // Why hold the chatbot as a sync does: a reconciler (in a worker process of the test) seals an
  // enqueuing run whose enqueuer holds no live lease with the jobs listed so far; without the
  // lease, a slow enqueue on a loaded machine lost the rest of its run to that seal.
  if (run.holdChatbot === false) await enqueue();
  else
    await holdingChatbot(
      syncLease(bench.store, bench.queues.writes),
      { chatbot: plan.chatbot, runId, waitMs: 0, logger: silentLogger() },
      enqueue,
    );
  return runId;
}

/**
 * Jobs waiting for a worker: in the wait list or, as every write job of a run has its turn
 * (src/queue/fair-turns.ts), in the prioritized set (BullMQ's getWaitingCount reads only the list).
 */
export async function waitingJobs(queue: Pick<Queue, 'getJobCountByTypes'>): Promise<number> {
  return await queue.getJobCountByTypes('waiting', 'prioritized');
}

/** Feed listings 0..n-1 for a chatbot. */
export function feedOf(
  chatbot: string,
  from: number,
  to: number,
  overrides: (i: number) => Partial<ListingWrite> = () => ({}),
): ListingWrite[] {
  return Array.from({ length: to - from }, (_, j) => ({ ...sampleListing(from + j, overrides(from + j)), SerialNumber: chatbot }));
}

/** The simulator's listings of a chatbot as MLSNumber → content hash (to compare with a feed). */
export function simContent(bench: QueueBench, chatbot: string): Map<string, string> {
  return new Map(bench.sim.state.listings(chatbot).map((l) => [l.MLSNumber, listingHash(fieldsOf(l))]));
}

export function feedContent(feed: readonly ListingWrite[]): Map<string, string> {
  return new Map(feed.map((l) => [l.MLSNumber, listingHash(fieldsOf(l))]));
}

/**
 * One QueueBench per test, closed after it (its prefix cleaned only when the test passed, kept to
 * look at otherwise). Call once at a test file's top level; call the returned function in a test.
 */
export function queueBenchPerTest(): (simOptions?: SimOptions, label?: string) => Promise<QueueBench> {
  let bench: QueueBench | undefined;
  afterEach(async (ctx) => {
    await bench?.close((ctx.task.result?.errors ?? []).length === 0);
    bench = undefined;
  });
  return async (simOptions = {}, label = 'queue') => (bench = await openQueueBench(inject('redisUrl'), simOptions, label));
}
