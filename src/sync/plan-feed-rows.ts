/**
 * The feed side of a sync: an open feed's rows fed into the planner as they arrive, so planning
 * overlaps reading and no whole-feed Map is held, with the reading held back while the planner
 * is not ready yet (the remote snapshot and the ledger are still being read).
 */
import type { Plan, PlanInMemory } from '../domain/plan.js';
import type { Planner, PlanResult } from '../domain/planner.js';
import { feedInterrupted } from '../feed/feed-error.js';
import type { FeedRow, FeedStats, OpenFeed } from '../feed/open-feed.js';
import type { RejectedRow } from './summary.js';

type ListingRow = Extract<FeedRow, { kind: 'listing' }>;

/** Rows read so far, bytes read so far, and the feed's size when known. */
export type FeedProgressCallback = (rowsRead: number, bytes: number, totalBytes: number | undefined) => void;

/**
 * Listings that may wait for the planner before the feed stops being read. Why 4096: it keeps
 * the reader busy across a few network chunks (a row is ~0.5-2 KiB) while the listings waiting
 * stay a few MiB however large the feed and however slow the remote; a worker-thread reader
 * adds its own 8 batches of 1,000 rows ahead (feed-worker-protocol.ts).
 */
export const MAX_WAITING_ROWS = 4096;

export interface PlanFeedOptions {
  onProgress?: FeedProgressCallback;
  /** Default MAX_WAITING_ROWS. */
  maxWaitingRows?: number;
  /** Stops reading between rows (SIGTERM): throws FEED_INTERRUPTED. */
  signal?: AbortSignal;
  /** The feed as shown to people (credentials and query string removed), for the interrupted message. */
  where?: string;
  /**
   * Replication: asked once the feed ended, whether excluded (off-market) rows are deletes. Why
   * asked at the end: only a pull that was read completely may delete; a halted one only adds.
   */
  removeExcluded?: () => boolean;
}

/** The feed read to the end and planned as it was read. */
export interface PlannedFeed<P extends Plan = PlanInMemory> {
  planned: PlanResult<P>;
  rejected: RejectedRow[];
  stats: FeedStats;
}

/** Plans listings that arrived before the planner was ready; returns an empty list to wait in. */
function planAll(planner: Planner<Plan>, listings: readonly ListingRow[]): ListingRow[] {
  for (const row of listings) planner.add(row.key, row.listing, row.filled, row.instructed);
  return [];
}

/**
 * Rejected rows hold their listings: by key, by every candidate of a broken row, and a row whose
 * key cannot be read at all withholds every delete (it may be the row of any listing).
 */
function holdRejected(planner: Planner<Plan>, rejected: readonly RejectedRow[]): void {
  const unreadable: number[] = [];
  for (const row of rejected) {
    if (row.key !== undefined) planner.hold(row.key);
    for (const key of row.keyCandidates ?? []) planner.hold(key);
    if (row.keyUnreadable === true) unreadable.push(row.line);
  }
  if (unreadable.length > 0) planner.withholdDeletes(unreadable);
}

/**
 * Reads the whole feed into `planner` and finishes the plan. Listings that arrive before the
 * planner is ready wait in a list of at most `maxWaitingRows`; when it is full, no further row
 * is pulled from the feed until the planner is ready (backpressure reaches the file, the socket
 * or the feed's worker thread), so a slow remote read never lets the feed pile up in memory.
 */
export async function planFeedRows<P extends Plan>(
  feed: OpenFeed,
  planner: Promise<Planner<P>>,
  options: PlanFeedOptions = {},
): Promise<PlannedFeed<P>> {
  const { onProgress, signal } = options;
  const maxWaiting = options.maxWaitingRows ?? MAX_WAITING_ROWS;
  let ready: Planner<P> | undefined;
  // Handled here so a failed remote read is not an unhandled rejection while the feed is still read;
  // it is rethrown by the awaits below.
  planner.then(
    (value) => (ready = value),
    () => undefined,
  );
  let waiting: ListingRow[] = [];
  const rejected: RejectedRow[] = [];
  const excluded: string[] = [];
  // Records the display policy forbids: deleted when held, whatever the mode (a pull's only once it is complete).
  const forbidden: string[] = [];
  let rows = 0;
  const report = (): void => {
    if (onProgress === undefined) return;
    const { bytes, totalBytes } = feed.progress();
    onProgress(rows, bytes, totalBytes);
  };
  try {
    for await (const row of feed.rows) {
      rows += 1;
      if (row.kind === 'listing') {
        if (ready !== undefined) {
          if (waiting.length > 0) waiting = planAll(ready, waiting);
          ready.add(row.key, row.listing, row.filled, row.instructed);
        } else {
          waiting.push(row);
          if (waiting.length >= maxWaiting) {
            ready = await planner;
            waiting = planAll(ready, waiting);
          }
        }
      } else if (row.kind === 'rejected') rejected.push(row);
      else if (options.removeExcluded !== undefined) excluded.push(row.key);
      else if (row.remove === true) forbidden.push(row.key);
      if (signal?.aborted === true) throw feedInterrupted(options.where ?? 'the feed');
      if (rows % 500 === 0) report();
    }
  } catch (thrown) {
    // An abort surfaces as whatever the reader was doing (a destroyed socket, a failed page): say what happened.
    if (signal?.aborted === true) throw feedInterrupted(options.where ?? 'the feed');
    throw thrown;
  }
  report();
  const done = await planner;
  planAll(done, waiting);
  holdRejected(done, rejected);
  if (options.removeExcluded?.() === true) for (const key of excluded) done.remove(key);
  for (const key of forbidden) done.remove(key);
  return { planned: done.finish(), rejected, stats: feed.stats() };
}
