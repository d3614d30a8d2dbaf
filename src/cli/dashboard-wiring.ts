/**
 * The dashboard's real data: DashboardData over the Redis store (runs, key index) and the
 * BullMQ queues (failed jobs, retry, counts). Lives in the composition root because it is the
 * one place allowed to join store, queue and dashboard. It holds no service credential: the
 * dashboard process needs Redis only.
 */
import type { Queue } from 'bullmq';
import type { Config } from '../config.js';
import type { DashboardData, FailedJobView, KeyTouchView, RejectedRowView, RunDetail, RunListItem } from '../dashboard/types.js';
import type { Logger } from '../logger.js';
import { closeConnection, createDashboardConnection, readyWithin } from '../queue/connection.js';
import { findKeyJobs, listFailedJobs, retryJobs } from '../queue/failed-jobs.js';
import { openQueues, type Queues } from '../queue/queues.js';
import { readCallMetrics } from '../store/call-metrics.js';
import { readRunSamples } from '../store/run-metrics.js';
import type { RunRecord } from '../store/run-types.js';
import { createStore, type Store } from '../store/store.js';
import { createProcessWatch } from './queue-wiring.js';

export interface DashboardWiring {
  data: DashboardData;
  /** Every queue, for bull-board. */
  queues: Queue[];
  /** Whether Redis answers now (pages answer 503 while it does not). */
  redisAvailable: () => boolean;
  /** Closes the queues and the Redis connection. */
  close(): Promise<void>;
}

type Json = Readonly<Record<string, unknown>>;

function objectAt(value: unknown, field: string): Json | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Json)[field];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Json) : undefined;
}

function numberAt(value: Json | undefined, field: string): number {
  const n = value?.[field];
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

function stringAt(value: Json, field: string): string | undefined {
  const text = value[field];
  return typeof text === 'string' ? text : typeof text === 'number' ? String(text) : undefined;
}

/** A run record as a runs-list row; plan and guard come from the summary the sync stored. */
export function runListItemOf(record: RunRecord): RunListItem {
  const plan = objectAt(record.summary, 'plan');
  const guard = objectAt(record.summary, 'guard');
  const reasons = guard?.reasons;
  const item: RunListItem = {
    runId: record.id,
    chatbot: record.chatbot,
    startedAt: record.startedAt,
    status: record.status,
    trigger: record.trigger,
    counts: {
      created: record.counts.created,
      updated: record.counts.updated,
      deleted: record.counts.deleted,
      failed: record.counts.failed,
      retried: record.counts.retried,
      superseded: record.counts.superseded,
    },
    plan: { create: numberAt(plan, 'create'), update: numberAt(plan, 'update'), delete: numberAt(plan, 'delete'), unchanged: numberAt(plan, 'unchanged') },
    guard: {
      ok: guard?.ok !== false,
      reasons: Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : [],
      forced: record.forced || guard?.forced === true,
    },
    jobs: { total: record.counts.totalJobs, finished: record.counts.finishedJobs, failed: record.counts.failedJobs },
  };
  if (record.finishedAt !== undefined) item.finishedAt = record.finishedAt;
  return item;
}

/** A stored rejected row (JSON of the feed's RejectedRow), or undefined when it is not one. */
export function rejectedRowOf(value: unknown): RejectedRowView | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const row = value as Json;
  const line = row.line;
  if (typeof line !== 'number') return undefined;
  const view: RejectedRowView = { line, field: stringAt(row, 'field') ?? '', value: stringAt(row, 'value') ?? '', reason: stringAt(row, 'reason') ?? '' };
  const key = stringAt(row, 'key');
  if (key !== undefined) view.key = key;
  return view;
}

/**
 * DashboardData over an open store and queues (the caller owns both). `prefix` (the BullMQ
 * prefix the store lives under) turns on the call and run metrics of /metrics.
 */
export function createStoreDashboardData(store: Store, queues: Queues, prefix?: string): DashboardData {
  const data: DashboardData = {
    async listRuns(opts) {
      return (await store.runs.listRuns({ limit: opts.limit, ...(opts.chatbot ? { chatbot: opts.chatbot } : {}) })).map(runListItemOf);
    },
    async getRun(runId) {
      const record = await store.runs.getRun(runId);
      if (!record) return undefined;
      const rejected = (await store.runs.rejectedRows(runId)).map(rejectedRowOf).filter((row): row is RejectedRowView => row !== undefined);
      const feed = objectAt(record.summary, 'feed');
      const remote = objectAt(record.summary, 'remote');
      const detail: RunDetail = { ...runListItemOf(record), summary: { ...(feed ? { feed } : {}), ...(remote ? { remote } : {}) }, rejected };
      return detail;
    },
    async failedJobs(runId) {
      const rows = await listFailedJobs(queues.writes, store, runId);
      return rows.map((row): FailedJobView => ({ jobId: row.jobId, chatbot: row.chatbot, key: row.key, kind: row.name, attempts: row.attempts, code: row.code, message: row.message }));
    },
    async retryFailed(runId) {
      return (await retryJobs(queues.writes, store, { runId })).retried.length;
    },
    async findKey(key) {
      const rows = await findKeyJobs(queues.writes, store, key);
      return rows.map((row): KeyTouchView => ({ runId: row.runId, jobId: row.jobId, chatbot: row.chatbot, kind: row.name || 'removed', state: row.state, at: row.at }));
    },
    async pingRedis() {
      try {
        return (await store.redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async jobCounts() {
      const counts: Record<string, Record<string, number>> = {};
      for (const queue of [queues.writes, queues.syncRuns]) counts[queue.name] = await queue.getJobCounts();
      return counts;
    },
  };
  if (prefix === undefined) return data;
  return { ...data, callMetrics: () => readCallMetrics(store.redis, prefix), runMetrics: () => readRunSamples(store.redis, prefix) };
}

/** How long the dashboard waits for Redis at start before it serves anyway. */
const DASHBOARD_CONNECT_WAIT_MS = 3000;

/**
 * Opens Redis, the store and the queues for `listing-sync dashboard`. It starts whether Redis
 * answers or not, and lives through outages: the connection reconnects by itself, pages answer
 * 503 meanwhile (`redisAvailable`), and the outage is logged once per interval, not per request.
 */
export async function createDashboardWiring(config: Config, logger: Logger): Promise<DashboardWiring> {
  const watch = createProcessWatch(config, logger);
  const redis = createDashboardConnection(config.redis.url, watch);
  // Why wait a little: the first requests should find Redis connected when it answers; why not
  // more: a dashboard started while Redis is down serves the outage page instead of not starting.
  await readyWithin(redis, DASHBOARD_CONNECT_WAIT_MS);
  const store = createStore(redis, config.redis.prefix);
  const queues = openQueues(redis, config.redis.prefix);
  // Why a listener: BullMQ prints an 'error' event nobody listens to as a stack trace.
  for (const queue of [queues.writes, queues.syncRuns]) queue.on('error', (err) => watch.report(err, 'queue'));
  return {
    data: createStoreDashboardData(store, queues, config.redis.prefix),
    queues: [queues.writes, queues.syncRuns],
    redisAvailable: () => watch.isUp(),
    async close() {
      await queues.close();
      await closeConnection(redis);
    },
  };
}
