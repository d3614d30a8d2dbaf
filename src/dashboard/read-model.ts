/**
 * The dashboard's read model: DashboardData over the Redis store (runs, key index) and the BullMQ
 * queues (failed jobs, retry, counts). Run records arrive parsed (src/store/run-summary.ts): a
 * record an older version wrote shows what it has, never an error page.
 */
import { z } from 'zod';
import { findKeyJobs, retryJobs, runFailures, type FailedJobRow } from '../queue/failed-jobs.js';
import { queueDisplayName, type Queues } from '../queue/queues.js';
import { describeTarget, type JobTarget } from '../queue/job-seal.js';
import { waitingTargets } from '../queue/waiting-targets.js';
import { readCallMetrics } from '../store/call-metrics.js';
import { readMediaMetrics } from '../store/media-metrics.js';
import { readShownPhotos } from '../store/shown-photos.js';
import { readRunSamples } from '../store/run-metrics.js';
import type { Store } from '../store/store.js';
import { AlertStore } from '../store/alert-store.js';
import { FleetRecordStore } from '../store/fleet-record-store.js';
import { fleetForDisplay } from '../sync/fleet-view.js';
import { runSourceOf } from '../sync/run-source.js';
import { readFleetChatbots } from './fleet-data.js';
import { createHealthData } from './health-model.js';
import type { RunRecord } from '../store/run-types.js';
import { runListItemOf } from './run-list-item.js';
import { runTargets, targetView } from './run-targets.js';
import { noWorkerNotice, queuePrefix, writeWorkersAlive } from '../sync/worker-notice.js';
import type { DashboardData, FailedJobView, KeyTouchView, RejectedRowView, RunDetail, RunPageView, RunPlanNotes } from './types.js';

/** A text field of a stored row: numbers shown as text, anything else left out. */
const text = z
  .union([z.string(), z.number().transform(String)])
  .optional()
  .catch(undefined);

/** A stored rejected row (JSON of the feed's RejectedRow), lenient: only `line` is required. */
const rejectedRowSchema = z.object({ line: z.number(), field: text, value: text, reason: text, key: text });

/** A stored rejected row as the run page shows it, or undefined when it is not one. */
export function rejectedRowOf(value: unknown): RejectedRowView | undefined {
  const parsed = rejectedRowSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const row = parsed.data;
  const view: RejectedRowView = { line: row.line, field: row.field ?? '', value: row.value ?? '', reason: row.reason ?? '' };
  if (row.key !== undefined) view.key = row.key;
  return view;
}

function failedJobView(row: FailedJobRow, own: JobTarget | undefined): FailedJobView {
  return {
    ...(row.target === undefined ? { target: '', elsewhere: false } : targetView(row.target, own)),
    jobId: row.jobId,
    chatbot: row.chatbot,
    key: row.key,
    kind: row.name,
    attempts: row.attempts,
    code: row.code,
    message: row.message,
    address: row.address,
    city: row.city,
  };
}

/** A `--replicate` run's figures from its stored summary (an object the sync added), or undefined. */
function replicationOf(summary: RunRecord['summary']): Record<string, unknown> | undefined {
  const value = summary?.['replication'];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The plan's figures beyond its four counts, as the run page shows them (undefined when there are none). */
function planNotesOf(plan: NonNullable<RunRecord['summary']>['plan']): RunPlanNotes | undefined {
  if (plan === undefined) return undefined;
  const notes: RunPlanNotes = {
    ...(plan.held > 0 ? { held: plan.held } : {}),
    ...(plan.adopted ? { adopted: plan.adopted } : {}),
    ...(plan.deletesWithheld
      ? { deletesWithheld: { deletes: plan.deletesWithheld.deletes, rows: plan.deletesWithheld.rows, reason: plan.deletesWithheld.reason } }
      : {}),
  };
  return Object.keys(notes).length === 0 ? undefined : notes;
}

/** The run's counts without the jobs re-queued since they failed: they are waiting to run again, not failed. */
function withoutRequeued(run: RunDetail, requeued: RunPageView['requeued']): RunDetail {
  if (requeued.jobs === 0) return run;
  return {
    ...run,
    counts: { ...run.counts, failed: Math.max(0, run.counts.failed - requeued.listings) },
    jobs: {
      total: run.jobs.total,
      finished: Math.max(0, run.jobs.finished - requeued.jobs),
      failed: Math.max(0, run.jobs.failed - requeued.jobs),
    },
  };
}

/**
 * DashboardData over an open store and queues (the caller owns both). `prefix` (the BullMQ
 * prefix the store lives under) turns on the call and run metrics of /metrics; `ownTarget`, the
 * service this dashboard's worker is for, marks the jobs planned for another one.
 */
export function createStoreDashboardData(store: Store, queues: Queues, prefix?: string, ownTarget?: JobTarget): DashboardData {
  const records = prefix === undefined ? undefined : new FleetRecordStore(store.redis, prefix);
  const data: DashboardData = {
    async listRuns(opts) {
      const [runs, fleet] = await Promise.all([
        store.runs.listRuns({ limit: opts.limit, ...(opts.chatbot ? { chatbot: opts.chatbot } : {}) }),
        records === undefined ? undefined : fleetForDisplay(records),
      ]);
      return runs.map((run) => {
        const item = runListItemOf(run);
        const source = fleet === undefined ? run.summary?.source : runSourceOf(run, fleet);
        return source === undefined ? item : { ...item, source };
      });
    },
    async getRun(runId) {
      const record = await store.runs.getRun(runId);
      if (!record) return undefined;
      const rejected = (await store.runs.rejectedRows(runId)).map(rejectedRowOf).filter((row): row is RejectedRowView => row !== undefined);
      const { feed, remote, changes, wipes, shape, display } = record.summary ?? {};
      const replication = replicationOf(record.summary);
      const planNotes = planNotesOf(record.summary?.plan);
      const detail: RunDetail = {
        ...runListItemOf(record),
        summary: {
          ...(feed ? { feed } : {}),
          ...(remote ? { remote } : {}),
          ...(changes ? { changes } : {}),
          ...(wipes ? { wipes } : {}),
          ...(shape ? { shape } : {}),
          ...(planNotes ? { planNotes } : {}),
          ...(replication ? { replication } : {}),
          ...(display ? { display } : {}),
        },
        rejected,
      };
      return detail;
    },
    async runPage(runId) {
      // Why the failures first: a re-queued job that finishes between the two reads has then
      // already left the record's failed count, so the page never shows a failure it does not list.
      const { failed, requeued } = await runFailures(queues.writes, store, runId);
      const run = await data.getRun(runId);
      if (!run) return undefined;
      const view: RunPageView = {
        run: withoutRequeued(run, requeued),
        failed: failed.map((row) => failedJobView(row, ownTarget)),
        requeued,
        targets: await runTargets(queues, store, run, failed, ownTarget),
        ...(ownTarget === undefined ? {} : { ownTarget: describeTarget(ownTarget) }),
      };
      const waiting = requeued.jobs > 0 || run.status === 'running' || run.status === 'enqueuing';
      if (waiting && (await writeWorkersAlive(queues.writes)) === 0) view.noWorker = noWorkerNotice(queuePrefix(queues.writes), runId);
      return view;
    },
    async retryFailed(runId, jobId) {
      // Why the run's own list for one job: a form must not retry a job of another run by its id.
      if (jobId !== undefined) {
        const { failed } = await runFailures(queues.writes, store, runId);
        if (!failed.some((job) => job.jobId === jobId)) return 0;
      }
      return (await retryJobs(queues.writes, store, jobId === undefined ? { runId } : { jobIds: [jobId] })).retried.length;
    },
    async findKey(key) {
      const rows = await findKeyJobs(queues.writes, store, key);
      return rows.map((row): KeyTouchView => ({
        runId: row.runId,
        jobId: row.jobId,
        chatbot: row.chatbot,
        kind: row.name || 'removed',
        state: row.state,
        at: row.at,
      }));
    },
    async pingRedis() {
      try {
        return (await store.redis.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    serviceOutage: () => store.breaker.outage(),
    shownPhotos: (chatbot, limit) => readShownPhotos(store.redis, store.keys, chatbot, limit),
    async jobCounts() {
      const counts: Record<string, Record<string, number>> = {};
      for (const queue of [queues.writes, queues.syncRuns, queues.alerts])
        counts[queueDisplayName(queue.name)] = await queue.getJobCounts();
      return counts;
    },
  };
  if (records === undefined || prefix === undefined) return data;
  const healthData = createHealthData(store, new AlertStore(store.redis, prefix), queues.alerts.name);
  return {
    ...data,
    fleet: () => readFleetChatbots({ records, syncRuns: queues.syncRuns, health: healthData }),
    fleetMembers: async () =>
      Object.entries((await fleetForDisplay(records)).chatbots).map(([chatbot, settings]) => ({ chatbot, source: settings.source })),
    callMetrics: () => readCallMetrics(store.redis, prefix),
    mediaMetrics: () => readMediaMetrics(store.redis, prefix),
    runMetrics: () => readRunSamples(store),
    healthData: {
      ...healthData,
      jobTargets: async () =>
        (await Promise.all([waitingTargets(queues.writes), waitingTargets(queues.syncRuns)]))
          .flat()
          .map((entry) => ({ target: describeTarget(entry.target), jobs: entry.jobs, run: entry.run })),
    },
    chatbotHealth: () => healthData.health(),
  };
}
