/**
 * What a replication run asks the Property resource for. Pure.
 * - First run (no watermark): every record, oldest change first.
 * - Later runs: `ModificationTimestamp ge <watermark − overlap>`: `ge`, never `gt`, because a
 *   record stamped exactly at the watermark may have been written after the last run read that
 *   instant (several records share a stamp; the last run may have stopped between them). What is
 *   read again is unchanged and the planner sends nothing for it.
 * - Sweep: every record's keys only, to learn which listings are gone.
 * Always ordered by ModificationTimestamp then ListingKey: the key breaks ties, so pages are a
 * total order and the largest stamp received is a safe watermark. (The names are the server's,
 * from its `$metadata`: replication-fields.ts; these are the Data Dictionary's.)
 */
import { UsageError } from '../../shared/errors.js';
import type { ODataQuery } from './odata-url.js';
import type { ReplicationFields } from './replication-fields.js';
import { parseStamp, stampLiteral, stampMinus, type Stamp } from './timestamps.js';

export interface ReplicationQueryInput {
  /** The key and stamp names (the server's `$metadata`, or the DD's). */
  fields: ReplicationFields;
  /** Pull every record's keys only (and delete nothing unless the sweep completes). */
  sweep?: boolean;
  /** The largest ModificationTimestamp a previous run received and enqueued; absent on a first run. */
  watermark?: string;
  /** How far before the watermark to start again (default 0). */
  overlapMs?: number;
  /** Fields the listings are keyed by besides ListingKey (ListingId for MLSNumber, ListingURL for URL). */
  keyFields?: readonly string[];
  /** `$select` of a pull (the key and timestamp fields are added); absent: every field. */
  select?: readonly string[];
  /** `$expand=Media` on a pull. */
  expandMedia: boolean;
}

const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** `ModificationTimestamp ge <stamp>`: the filter of a pull that starts at `stamp`. */
export function sinceFilter(field: string, stamp: Stamp): string {
  return `${field} ge ${stampLiteral(stamp)}`;
}

/** The watermark as an instant; a UsageError when it is not an ISO 8601 date-time with an offset. */
export function watermarkStamp(watermark: string): Stamp {
  const stamp = parseStamp(watermark);
  if (stamp === undefined)
    throw new UsageError(
      `replication watermark '${watermark}' is not an ISO 8601 date-time with an offset, such as 2024-05-01T12:00:00.000Z`,
    );
  return stamp;
}

/** The stamp an incremental pull starts at: the watermark less the overlap. */
export function pullStart(watermark: string, overlapMs = 0): Stamp {
  if (!Number.isFinite(overlapMs) || overlapMs < 0) throw new UsageError(`the replication overlap must be ≥ 0 ms (got ${overlapMs})`);
  return stampMinus(watermarkStamp(watermark), overlapMs);
}

/** What a pull or a sweep asks for; the pager orders it by (stamp, key), pages and counts it (keyed-pager.ts). */
export function replicationQuery(input: ReplicationQueryInput): Pick<ODataQuery, 'filter' | 'select' | 'expand'> {
  const { key, timestamp, photosChange } = input.fields;
  const keys = [key, ...(input.keyFields ?? [])];
  const query: Pick<ODataQuery, 'filter' | 'select' | 'expand'> = {};
  if (input.sweep === true) {
    // Why the timestamp too: pages are continued after the last (timestamp, key) received.
    return { select: unique([...keys, timestamp]) };
  }
  if (input.watermark !== undefined) {
    const start = pullStart(input.watermark, input.overlapMs);
    query.filter = sinceFilter(timestamp, start);
    // Why in the same filter: the order (and so the cursor and the watermark) stays by the
    // modification stamp, and asking for photo changes costs no request of its own.
    if (photosChange !== undefined) query.filter = `(${query.filter}) or (${sinceFilter(photosChange, start)})`;
  }
  if (input.select !== undefined) query.select = unique([...keys, timestamp, ...input.select]);
  if (input.expandMedia) query.expand = ['Media'];
  return query;
}
