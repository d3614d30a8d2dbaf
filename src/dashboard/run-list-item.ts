/** A run record as the dashboard lists it: the runs page (read-model.ts) and the charts (health-model.ts). */
import type { RunRecord } from '../store/run-types.js';
import type { RunListItem } from './types.js';

/** A run record as a runs-list row; plan and guard come from the summary the sync stored (zero and "ok" when it has none). */
export function runListItemOf(record: RunRecord): RunListItem {
  const plan = record.summary?.plan;
  const guard = record.summary?.guard;
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
    plan: { create: plan?.create ?? 0, update: plan?.update ?? 0, delete: plan?.delete ?? 0, unchanged: plan?.unchanged ?? 0 },
    guard: { ok: guard?.ok !== false, reasons: guard?.reasons ?? [], forced: record.forced || guard?.forced === true },
    jobs: { total: record.counts.totalJobs, finished: record.counts.finishedJobs, failed: record.counts.failedJobs },
  };
  if (record.finishedAt !== undefined) item.finishedAt = record.finishedAt;
  return item;
}
