/**
 * What a sync decided (its outcome), and the parts of its summary built from the plan and the
 * feed. The summary's shape is a schema in src/store/run-summary.ts: the run record stores it.
 */
import { formatGuardLimit, type GuardVerdict } from '../domain/guard.js';
import type { DeletesWithheld, Plan } from '../domain/plan.js';
import type { WipeLimits } from '../domain/wipe-guard.js';
import { displaySource } from '../feed/feed-source.js';
import type { FeedRow, FeedStats } from '../feed/open-feed.js';
import type { SyncSummary } from '../store/run-summary.js';
import { count } from '../shared/counts.js';

/** A stored run summary read as a sync's (undefined for a run that did not come from a sync). */
export { syncSummaryOf } from '../store/run-summary.js';

export type RejectedRow = Extract<FeedRow, { kind: 'rejected' }>;

/** Everything a sync decided, for --report and the run record. */
import type { ReplicationOutcome } from './replication.js';

export interface SyncOutcome {
  summary: SyncSummary;
  plan: Plan;
  rejected: RejectedRow[];
  remoteDuplicates: Array<{ key: string; ids: string[] }>;
  remoteUnkeyed: string[];
  /** Set on a `--replicate` run: what was pulled and where the watermark stands. */
  replication?: ReplicationOutcome;
  /** A file feed's listings carried Images and no media store hosted them: the chatbot links the source's photo URLs. */
  photosLinked?: true;
}

/** What runSync returns: the outcome without its plan (spooled, and closed once the sync is decided). */
export type SyncResult = Omit<SyncOutcome, 'plan'>;

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
    ...(stats.leftEmpty === undefined ? {} : { leftEmpty: stats.leftEmpty }),
    ...(stats.outsideFilter === undefined ? {} : { outsideFilter: stats.outsideFilter }),
  };
}

/** "lines 5, 9, 61", the first ten and how many more. */
function linesText(withheld: DeletesWithheld): string {
  const shown = withheld.lines.slice(0, 10);
  const more = withheld.rows > shown.length ? ` and ${count(withheld.rows - shown.length)} more` : '';
  return `${withheld.rows === 1 ? 'line' : 'lines'} ${shown.join(', ')}${more}`;
}

/** Why a plan holds no deletes, with the lines to fix. */
export function withheldReason(plan: Plan, withheld: DeletesWithheld): string {
  const rows =
    withheld.rows === 1 ? '1 rejected row is too broken to read its' : `${count(withheld.rows)} rejected rows are too broken to read their`;
  const deletes = withheld.deletes === 1 ? '1 planned delete was' : `${count(withheld.deletes)} planned deletes were`;
  return (
    `${rows} ${plan.keyType} (${linesText(withheld)}); such a row may belong to any listing, so this run ` +
    `deletes nothing: ${deletes} withheld. Fix those rows (see the rejected rows); the next run makes the ` +
    `deletes.`
  );
}

export function planCounts(plan: Plan): SyncSummary['plan'] {
  const counts: SyncSummary['plan'] = {
    create: plan.creates.length,
    update: plan.updates.length,
    delete: plan.deletes.length,
    unchanged: plan.unchanged,
    held: plan.held ?? 0,
  };
  if (plan.deletesWithheld !== undefined)
    counts.deletesWithheld = { ...plan.deletesWithheld, reason: withheldReason(plan, plan.deletesWithheld) };
  return counts;
}

/** The wipe guard's part of a summary: the overrides as the run had them (--force is guard.forced), and every field it would empty. */
export function wipesSummary(limits: WipeLimits, judged: GuardVerdict['wipes']): NonNullable<SyncSummary['wipes']> {
  return { maxWipes: formatGuardLimit(limits.maxWipes), allowWipe: [...limits.allowWipe], fields: judged };
}
