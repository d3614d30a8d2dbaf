/** How a run's Redis hash (layout in keys.ts) reads as a RunRecord: leniently, since records outlive versions. */
import { readRunSummary } from './run-summary.js';
import { RUN_STATUSES, RUN_TRIGGERS, emptyCounts, type RunCounts, type RunRecord } from './run-types.js';

/** The count fields of a run hash, each stored as `c:<name>`. */
export const COUNT_FIELDS = [
  'created',
  'updated',
  'deleted',
  'unchanged',
  'edited',
  'superseded',
  'cancelled',
  'failed',
  'retried',
] as const;
/** A stored number; missing or garbled counts as 0. */
export function num(value: string | null | undefined): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** A run's counts from its hash fields (the job-finish script moves them). */
export function countsFrom(get: (field: string) => string | null | undefined): RunCounts {
  const counts = emptyCounts();
  for (const field of COUNT_FIELDS) counts[field] = num(get(`c:${field}`));
  counts.totalJobs = num(get('totalJobs'));
  counts.finishedJobs = num(get('j:finished'));
  counts.failedJobs = num(get('j:failed'));
  return counts;
}

/** The run record of a run hash, or undefined when the hash is not a run's. */
export function recordFrom(hash: Record<string, string>): RunRecord | undefined {
  if (hash.id === undefined || hash.chatbot === undefined) return undefined;
  const status = RUN_STATUSES.find((s) => s === hash.status) ?? 'planned';
  const trigger = RUN_TRIGGERS.find((t) => t === hash.trigger) ?? 'cli';
  const record: RunRecord = {
    id: hash.id,
    chatbot: hash.chatbot,
    trigger,
    forced: hash.forced === '1',
    status,
    startedAt: num(hash.startedAt),
    summary: readRunSummary(hash.summary),
    counts: countsFrom((field) => hash[field]),
    rejectedCount: num(hash.rejectedCount),
  };
  if (hash.finishedAt) record.finishedAt = num(hash.finishedAt);
  if (hash.stuckReason) record.stuckReason = hash.stuckReason;
  return record;
}
