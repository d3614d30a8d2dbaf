/**
 * A sync's rejected rows, bounded: the first MAX_REJECTED_KEPT in full (what the summary, the run
 * record and the dashboard show), every one counted by field and kind of reason, and every one
 * handed to `spill` (the --report file, written as they come). Why bounded: a feed whose million
 * rows all fail would otherwise hold a million row objects in memory and write them to Redis.
 */
import type { RejectedRow } from './summary.js';

/** Rejected rows kept in full per run. */
export const MAX_REJECTED_KEPT = 1000;
/** Distinct (field, reason) pairs counted per run; further ones are counted under "other reasons". */
export const MAX_REJECTED_KINDS = 50;

/** How many rejected rows had this field and kind of reason. */
export interface RejectedCount {
  field: string;
  reason: string;
  count: number;
}

export interface RejectedRows {
  add(row: RejectedRow): void;
  /** The first rows, in feed order. */
  readonly kept: RejectedRow[];
  /** Counts by field and reason, most frequent first. */
  counts(): RejectedCount[];
}

/**
 * A reason without what varies from row to row: the quoted value, the key of a duplicate, line
 * numbers, so "Bedrooms: expected a number, got 'three'" and "…, got 'x'" count together.
 */
export function reasonKind(reason: string): string {
  if (reason.startsWith('duplicate ')) return reason.replace(/^(duplicate \S+) .*$/, '$1');
  return reason
    .replace(/'[^']*'/g, "'…'")
    .replace(/ its \S+ is one of .*$/, '')
    .replace(/\d+/g, 'N');
}

export function rejectedRows(spill?: (row: RejectedRow) => void): RejectedRows {
  const kept: RejectedRow[] = [];
  const byKind = new Map<string, RejectedCount>();
  return {
    kept,
    add(row) {
      if (kept.length < MAX_REJECTED_KEPT) kept.push(row);
      spill?.(row);
      const reason = reasonKind(row.reason);
      const id = `${row.field}\u0000${reason}`;
      const known = byKind.get(id);
      if (known !== undefined) known.count += 1;
      else if (byKind.size < MAX_REJECTED_KINDS) byKind.set(id, { field: row.field, reason, count: 1 });
      else {
        const other = byKind.get('\u0000other') ?? { field: '', reason: 'other reasons', count: 0 };
        other.count += 1;
        byKind.set('\u0000other', other);
      }
    },
    counts: () => [...byKind.values()].sort((a, b) => b.count - a.count),
  };
}
