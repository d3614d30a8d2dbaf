/** A stored run record as the health status machine's RunFacts (src/domain/health/status.ts). */
import { z } from 'zod';
import type { RunFacts } from '../../domain/health/status.js';
import type { RunRecord } from '../../store/run-types.js';

/** The replication part a replicating run's summary carries (see run-sync.ts recordReplication). */
const replicationSchema = z.object({ status: z.string(), halted: z.string().optional() });

/** Whether a run is a sync (or a skipped scheduled one): a chatbot edit run says nothing about listings. */
export function isSyncRun(record: RunRecord): boolean {
  return record.status === 'skipped' || record.summary?.guard !== undefined;
}

export function runFactsOf(record: RunRecord): RunFacts {
  const summary = record.summary;
  const replication = replicationSchema.safeParse(summary?.replication);
  const facts: RunFacts = {
    runId: record.id,
    status: record.status,
    startedAt: record.startedAt,
    counts: {
      created: record.counts.created,
      updated: record.counts.updated,
      deleted: record.counts.deleted,
      failed: record.counts.failed,
    },
    guardReasons: summary?.guard?.reasons ?? [],
  };
  if (record.finishedAt !== undefined) facts.finishedAt = record.finishedAt;
  if (summary?.feed !== undefined) facts.feed = { rows: summary.feed.rows, rejected: summary.feed.rejected };
  if (summary?.skipped !== undefined) facts.skippedReason = summary.skipped;
  const staleHours = summary?.display?.maxStaleHours;
  if (staleHours !== undefined) facts.maxStaleMs = staleHours * 3_600_000;
  if (replication.success && replication.data.status === 'budget-exhausted')
    facts.budgetExhausted = replication.data.halted ?? 'the feed request budget ran out before the pull was complete';
  if (replication.success && replication.data.status === 'incomplete')
    facts.pullIncomplete = replication.data.halted ?? 'the feed server stopped short of its own count';
  return facts;
}
