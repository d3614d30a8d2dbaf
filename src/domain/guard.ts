/**
 * The safety guard: the last check before anything is enqueued. A feed that is empty, truncated
 * or half-rejected, or a remote read that missed pages, must never wipe a chatbot; the guard
 * refuses such a run (exit 3 in the CLI) with reasons that say how to override.
 */
import { UsageError } from '../shared/errors.js';
import type { FieldWipe } from './field-changes.js';
import { count, plural } from '../shared/counts.js';
import { percentText, type GuardLimit } from './guard-limit.js';
import type { Plan } from './plan.js';
import { judgeWipes, type JudgedWipe, type WipeLimits } from './wipe-guard.js';

export type { GuardLimit };
export type MaxDeletes = GuardLimit;

export interface GuardInput {
  plan: Plan;
  /** Data rows read from the feed (valid + rejected + excluded). */
  feedRows: number;
  /** Rows that became listings. Excluded rows (e.g. RESO Withdrawn) are not valid: they list nothing. */
  validRows: number;
  rejectedRows: number;
  remoteComplete: boolean;
  remoteIncompleteReasons: string[];
  /**
   * Scope managed: remote listings whose key is in the ledger (PlanResult.managedListings), never
   * the ledger's whole size, whose entries for keys the chatbot lost would dilute the percentage.
   * Scope all: the remote count.
   */
  managedCount: number;
  /** Listings the remote snapshot holds; defaults to managedCount. Used by the empty-feed rule. */
  remoteListings?: number;
  /** Rows of the last successful non-dry run of this chatbot, when known. */
  lastSuccessfulFeedRows?: number;
  /**
   * The feed holds only what changed since the last run (RESO replication): a small or empty feed
   * is then normal, so the empty-feed and shrink checks do not apply.
   */
  incremental?: boolean;
  /** Default 10%. */
  maxDeletes: MaxDeletes;
  /** Default 5. */
  maxRejectedPercent: number;
  /** Fields the plan would empty on listings that hold them (PlanResult.wipes); none when absent. */
  wipes?: readonly FieldWipe[];
  /** --max-wipes and --allow-wipe (wipe-guard.ts); defaults when absent. */
  wipeLimits?: WipeLimits;
  force: boolean;
}

export interface GuardVerdict {
  ok: boolean;
  forced: boolean;
  /** One sentence per refusal reason, naming the numbers and the flag that overrides it. */
  reasons: string[];
  /** Each field the plan would empty on held values, with the guard's verdict on it. */
  wipes: JudgedWipe[];
}

export const DEFAULT_MAX_DELETES: MaxDeletes = { kind: 'percent', value: 10 };
export const DEFAULT_MAX_REJECTED_PERCENT = 5;

/** The smallest --max-deletes percentage that would allow `deletes` of `managed` (for the message). */
function percentNeeded(deletes: number, managed: number): string {
  return `${Math.ceil((deletes / managed) * 1000) / 10}%`;
}

function deletesReason(gone: number, input: GuardInput): string | undefined {
  const { maxDeletes, managedCount } = input;
  if (gone === 0) return undefined;
  if (maxDeletes.kind === 'count') {
    if (gone <= maxDeletes.value) return undefined;
    return (
      `The plan would delete ${plural(gone, 'listing')}, more than --max-deletes ${maxDeletes.value}; rerun ` +
      `with --max-deletes ${gone} or --force if that is intended.`
    );
  }
  if (managedCount === 0) {
    return (
      `The plan would delete ${plural(gone, 'listing')} while 0 listings are managed, so no percentage ` +
      `allows it; rerun with --max-deletes ${gone} or --force if that is intended.`
    );
  }
  const allowed = (managedCount * maxDeletes.value) / 100;
  if (gone <= allowed) return undefined;
  return (
    `The plan would delete ${plural(gone, 'listing')} of ${count(managedCount)} managed ` +
    `(${percentText((gone / managedCount) * 100)}%), more than --max-deletes ${maxDeletes.value}% ` +
    `(${count(Math.floor(allowed))}); rerun with --max-deletes ${gone} (or ${percentNeeded(gone, managedCount)}) or ` +
    `--force if that is intended.`
  );
}

function rejectedReason(input: GuardInput): string | undefined {
  if (input.feedRows <= 0 || input.rejectedRows <= 0) return undefined;
  const percent = (input.rejectedRows / input.feedRows) * 100;
  if (percent <= input.maxRejectedPercent) return undefined;
  return (
    `${count(input.rejectedRows)} of ${plural(input.feedRows, 'feed row')} were rejected (${percentText(percent)}%), more ` +
    `than --max-rejected ${input.maxRejectedPercent}%; fix the feed, or rerun with --max-rejected ` +
    `${Math.ceil(percent)}% or --force.`
  );
}

function truncatedReason(input: GuardInput): string | undefined {
  const last = input.lastSuccessfulFeedRows;
  if (last === undefined || input.feedRows * 2 >= last) return undefined;
  return (
    `The feed has ${plural(input.feedRows, 'row')}, fewer than half of the ${count(last)} rows of the last ` +
    `successful run; it may be truncated. Check the feed, or rerun with --force if the shrink is real.`
  );
}

function incompleteReason(input: GuardInput): string | undefined {
  if (input.remoteComplete) return undefined;
  const why = input.remoteIncompleteReasons.length > 0 ? ` (${input.remoteIncompleteReasons.join('; ')})` : '';
  return `The chatbot's listings could not be read completely${why}, so the plan may be wrong; retry later, or rerun with --force.`;
}

function emptyFeedReason(input: GuardInput): string | undefined {
  const remote = input.remoteListings ?? input.managedCount;
  if (input.validRows > 0 || remote <= 0) return undefined;
  return `The feed has no valid rows while the chatbot holds ${plural(remote, 'listing')}; an empty feed is never synced without --force.`;
}

/**
 * Decides whether a plan may run. Only 'gone' deletes count against --max-deletes: a 'duplicate'
 * delete removes an extra copy of a key that stays listed, so it shrinks no inventory, and
 * counting it would block exactly the clean-up of a chatbot with many duplicates. An incomplete
 * remote snapshot refuses even a plan without deletes: its creates may duplicate listings on the
 * pages that were not read. `force` turns every refusal into ok, keeping the reasons.
 */
export function checkGuard(input: GuardInput): GuardVerdict {
  const gone = input.plan.deletes.filter((planned) => planned.reason === 'gone').length;
  const wipes = judgeWipes(input.wipes ?? [], input.wipeLimits);
  const reasons = [
    input.incremental === true ? undefined : emptyFeedReason(input),
    deletesReason(gone, input),
    ...wipes.reasons,
    rejectedReason(input),
    input.incremental === true ? undefined : truncatedReason(input),
    incompleteReason(input),
  ].filter((reason): reason is string => reason !== undefined);
  const judged = wipes.judged;
  if (reasons.length === 0) return { ok: true, forced: false, reasons, wipes: judged };
  return input.force ? { ok: true, forced: true, reasons, wipes: judged } : { ok: false, forced: false, reasons, wipes: judged };
}

const COUNT = /^\d+$/;
const PERCENT = /^(\d+(?:\.\d+)?)\s*%$/;

/** Parses a guard limit typed after `flag`: '25' (a count) or '10%'. Throws UsageError. */
export function parseGuardLimit(text: string, flag: string): GuardLimit {
  const trimmed = text.trim();
  if (COUNT.test(trimmed)) return { kind: 'count', value: Number(trimmed) };
  const match = PERCENT.exec(trimmed);
  const value = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (value >= 0 && value <= 100) return { kind: 'percent', value };
  throw new UsageError(`${flag} must be a whole number of listings (e.g. 25) or a percentage from 0% to 100% (e.g. 10%), got "${text}".`, {
    flag,
    value: text,
  });
}

/** A guard limit as it is typed: '25' or '10%'. */
export function formatGuardLimit(limit: GuardLimit): string {
  return limit.kind === 'count' ? String(limit.value) : `${limit.value}%`;
}

/** Parses --max-deletes: '25' (a count) or '10%' (of the managed listings). Throws UsageError. */
export function parseMaxDeletes(text: string): MaxDeletes {
  return parseGuardLimit(text, '--max-deletes');
}
