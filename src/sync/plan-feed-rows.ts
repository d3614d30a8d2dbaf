/**
 * The feed side of a sync: an open feed's rows fed into the planner as they arrive, so planning
 * overlaps reading and no whole-feed Map is held, with the reading held back while the planner
 * is not ready yet (the remote snapshot and the ledger are still being read).
 */
import type { Plan, PlanInMemory } from '../domain/plan.js';
import type { Planner, PlanResult } from '../domain/planner.js';
import { feedInterrupted } from '../feed/feed-error.js';
import type { FeedRow, FeedStats, OpenFeed } from '../feed/open-feed.js';
import { rejectedRows, type RejectedCount } from './rejected-rows.js';
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
  /** Given every rejected row as it is read (the --report file): the result keeps only the first ones. */
  onRejected?: (row: RejectedRow) => void;
}

/** The feed read to the end and planned as it was read. */
export interface PlannedFeed<P extends Plan = PlanInMemory> {
  planned: PlanResult<P>;
  /** The first MAX_REJECTED_KEPT rejected rows (rejected-rows.ts); stats.rejected counts them all. */
  rejected: RejectedRow[];
  /** Every rejected row counted by field and kind of reason. */
  rejectedCounts: RejectedCount[];
  stats: FeedStats;
}

/** A row waiting for the planner: a listing to add, or a rejected row's keys to hold. */
type WaitingRow = ListingRow | { kind: 'hold'; keys: readonly string[] };

/** Plans rows that arrived before the planner was ready; returns an empty list to wait in. */
function planAll(planner: Planner<Plan>, rows: readonly WaitingRow[]): WaitingRow[] {
  for (const row of rows) {
    if (row.kind === 'listing') planner.add(row.key, row.listing, row.filled, row.instructed);
    else for (const key of row.keys) planner.hold(key);
  }
  return [];
}

/** A rejected row's keys to hold: its key and every candidate of a broken row. */
function heldKeys(row: RejectedRow): readonly string[] {
  const candidates = row.keyCandidates ?? [];
  return row.key === undefined ? candidates : [row.key, ...candidates];
}

/** Why in chunks: a spread of a million lines into one call would pass the engine's argument limit. */
function withholdDeletes(planner: Planner<Plan>, lines: readonly number[]): void {
  for (let i = 0; i < lines.length; i += 10_000) planner.withholdDeletes(lines.slice(i, i + 10_000));
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
  let waiting: WaitingRow[] = [];
  const rejected = rejectedRows(options.onRejected);
  // Rejected rows whose key cannot be read withhold every delete (any of them may be any listing's row).
  const unreadable: number[] = [];
  const excluded: string[] = [];
  // Records the display policy forbids: deleted when held, whatever the mode (a pull's only once it is complete).
  const forbidden: string[] = [];
  const wait = async (row: WaitingRow): Promise<void> => {
    waiting.push(row);
    if (waiting.length >= maxWaiting) {
      ready = await planner;
      waiting = planAll(ready, waiting);
    }
  };
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
        } else await wait(row);
      } else if (row.kind === 'rejected') {
        // Rejected rows hold their listings as they come, so none is kept whole for it.
        rejected.add(row);
        if (row.keyUnreadable === true) unreadable.push(row.line);
        const keys = heldKeys(row);
        if (keys.length > 0 && ready !== undefined) {
          if (waiting.length > 0) waiting = planAll(ready, waiting);
          for (const key of keys) ready.hold(key);
        } else if (keys.length > 0) await wait({ kind: 'hold', keys });
      } else if (options.removeExcluded !== undefined) excluded.push(row.key);
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
  if (unreadable.length > 0) withholdDeletes(done, unreadable);
  if (options.removeExcluded?.() === true) for (const key of excluded) done.remove(key);
  for (const key of forbidden) done.remove(key);
  return { planned: done.finish(), rejected: rejected.kept, rejectedCounts: rejected.counts(), stats: feed.stats() };
}
