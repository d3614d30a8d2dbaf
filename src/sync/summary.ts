/**
 * The summary a sync prints (text or --json) and stores on its run record. Field names are a
 * contract with scripts: `runId`, `chatbot`, `feed`, `remote`, `plan`, `guard`, `result`.
 */
import type { Plan } from '../domain/plan.js';
import type { FeedRow, FeedStats } from '../feed/open-feed.js';

export type RejectedRow = Extract<FeedRow, { kind: 'rejected' }>;

export interface SyncSummary {
  runId: string;
  chatbot: string;
  dryRun: boolean;
  trigger: string;
  startedAt: string;
  finishedAt?: string;
  feed: { source: string; profile: string; rows: number; valid: number; rejected: number; excluded: number; duplicates: number; filledDefaults: Record<string, number> };
  remote: { listings: number; virtualCount: number; complete: boolean; incompleteReasons: string[]; duplicates: number; unkeyed: number };
  plan: { create: number; update: number; delete: number; unchanged: number; held: number; adopted?: number };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  /** Jobs enqueued (absent for a dry run or a refused run). */
  jobs?: number;
  /** Final outcome once the run's jobs finished (sync --wait / --work). */
  result?: { created: number; updated: number; deleted: number; failed: number; superseded?: number; retried?: number };
}

/** Everything a sync decided, for --report and the run record. */
export interface SyncOutcome {
  summary: SyncSummary;
  plan: Plan;
  rejected: RejectedRow[];
  remoteDuplicates: Array<{ key: string; ids: string[] }>;
  remoteUnkeyed: string[];
}

export function feedSummary(source: string, profile: string, stats: FeedStats): SyncSummary['feed'] {
  return {
    source,
    profile,
    rows: stats.rows,
    valid: stats.valid,
    rejected: stats.rejected,
    excluded: stats.excluded,
    duplicates: stats.duplicates,
    filledDefaults: stats.filledDefaults,
  };
}

export function planCounts(plan: Plan): SyncSummary['plan'] {
  return { create: plan.creates.length, update: plan.updates.length, delete: plan.deletes.length, unchanged: plan.unchanged, held: plan.held ?? 0 };
}
