/**
 * The messages between a sync and the importer running in a worker thread (threaded-feed.ts on
 * the sync's side, feed-worker.ts in the worker). A feed error crosses as worker-thread.ts
 * `SentError`, so exit codes and messages are the same as when the feed is read in-thread.
 */
import type { FeedHeader, FeedShape } from '../domain/feed-shape.js';
import type { SentError } from '../runtime/worker-thread.js';
import type { FeedOptions, FeedRow, FeedStats } from './feed-types.js';

/**
 * Rows per message, and messages the worker may send ahead of the sync. Why these sizes: a
 * message costs ~50 µs however small, so a batch must be large; 8 batches ahead (~8 MiB of rows)
 * let the threads run without waiting on each other while keeping memory flat.
 */
export const FEED_WORKER_BATCH_ROWS = 1000;
export const FEED_WORKER_CREDITS = 8;

export interface FeedProgress {
  bytes: number;
  totalBytes?: number;
}

/** What the worker gets at start: the options of `openFeed`, with the thread already chosen. */
export interface FeedWorkerData {
  options: FeedOptions;
}

export type FromFeedWorker =
  /** The feed opened (header, format and key column checked). */
  | { type: 'opened'; progress: FeedProgress; header: FeedHeader | undefined }
  /** The next rows in file order; one credit was spent on them. */
  | { type: 'rows'; rows: FeedRow[]; stats: FeedStats; progress: FeedProgress }
  /** Every row was sent. */
  | { type: 'end'; stats: FeedStats; progress: FeedProgress; shape: FeedShape | undefined }
  /** Opening or reading failed; nothing follows. */
  | { type: 'failed'; error: SentError };

/** Sent back for each batch of rows the sync consumed: the worker may send one more. */
export interface FeedWorkerCredit {
  type: 'credit';
}
