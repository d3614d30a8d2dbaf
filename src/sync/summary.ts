/**
 * The summary a sync prints (text or --json) and stores on its run record. Field names are a
 * contract with scripts: `runId`, `chatbot`, `feed`, `remote`, `plan`, `guard`, `result`.
 */
import type { DeletesWithheld, Plan } from '../domain/plan.js';
import { displaySource } from '../feed/feed-source.js';
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
  plan: {
    create: number;
    update: number;
    delete: number;
    unchanged: number;
    held: number;
    adopted?: number;
    /** Present when rows too broken to read their key made the plan withhold every delete; `reason` says so in a sentence. */
    deletesWithheld?: DeletesWithheld & { reason: string };
  };
  guard: { ok: boolean; reasons: string[]; forced: boolean };
  /** Jobs enqueued (absent for a dry run or a refused run). */
  jobs?: number;
  /** The run's status once waited for (done, failed, cancelled, stuck): sync --wait / --work, runs resume. */
  status?: string;
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

/** `source` is shown without a URL's credentials and query string (they are never stored). */
export function feedSummary(source: string, profile: string, stats: FeedStats): SyncSummary['feed'] {
  return {
    source: displaySource(source),
    profile,
    rows: stats.rows,
    valid: stats.valid,
    rejected: stats.rejected,
    excluded: stats.excluded,
    duplicates: stats.duplicates,
    filledDefaults: stats.filledDefaults,
  };
}

/** "lines 5, 9, 61", the first ten and how many more. */
function linesText(withheld: DeletesWithheld): string {
  const shown = withheld.lines.slice(0, 10);
  const more = withheld.rows > shown.length ? ` and ${withheld.rows - shown.length} more` : '';
  return `${withheld.rows === 1 ? 'line' : 'lines'} ${shown.join(', ')}${more}`;
}

/** Why a plan holds no deletes, with the lines to fix. */
export function withheldReason(plan: Plan, withheld: DeletesWithheld): string {
  const rows = withheld.rows === 1 ? '1 rejected row is too broken to read its' : `${withheld.rows} rejected rows are too broken to read their`;
  const deletes = withheld.deletes === 1 ? '1 planned delete was' : `${withheld.deletes} planned deletes were`;
  return `${rows} ${plan.keyType} (${linesText(withheld)}); such a row may belong to any listing, so this run deletes nothing: ${deletes} withheld. Fix those rows (see the rejected rows); the next run makes the deletes.`;
}

export function planCounts(plan: Plan): SyncSummary['plan'] {
  const counts: SyncSummary['plan'] = { create: plan.creates.length, update: plan.updates.length, delete: plan.deletes.length, unchanged: plan.unchanged, held: plan.held ?? 0 };
  if (plan.deletesWithheld !== undefined) counts.deletesWithheld = { ...plan.deletesWithheld, reason: withheldReason(plan, plan.deletesWithheld) };
  return counts;
}
