/**
 * The messages between a sync and the importer running in a worker thread (threaded-feed.ts on
 * the sync's side, feed-worker.ts in the worker), and how a feed error crosses the thread
 * boundary: as its code, message and details, rebuilt on the other side with the same class of
 * error, so exit codes and messages are the same as when the feed is read in-thread.
 */
import { ListingSyncError, UsageError } from '../errors.js';
import type { FeedOptions, FeedRow, FeedStats } from './open-feed.js';

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

export interface SentError {
  code: string;
  name: string;
  message: string;
  details: Record<string, unknown>;
}

export type FromFeedWorker =
  /** The feed opened (header, format and key column checked). */
  | { type: 'opened'; progress: FeedProgress }
  /** The next rows in file order; one credit was spent on them. */
  | { type: 'rows'; rows: FeedRow[]; stats: FeedStats; progress: FeedProgress }
  /** Every row was sent. */
  | { type: 'end'; stats: FeedStats; progress: FeedProgress }
  /** Opening or reading failed; nothing follows. */
  | { type: 'failed'; error: SentError };

/** Sent back for each batch of rows the sync consumed: the worker may send one more. */
export interface FeedWorkerCredit {
  type: 'credit';
}

export function sendableError(thrown: unknown): SentError {
  if (thrown instanceof ListingSyncError)
    return { code: thrown.code, name: thrown.name, message: thrown.message, details: { ...thrown.details } };
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : 'UNKNOWN', name: error.name, message: error.message, details: {} };
}

export function receivedError(sent: SentError): ListingSyncError {
  return sent.name === 'UsageError'
    ? new UsageError(sent.message, sent.details)
    : new ListingSyncError(sent.code, sent.message, { details: sent.details });
}
