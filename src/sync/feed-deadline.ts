/**
 * The overall deadline of reading one feed (--feed-timeout, LISTING_SYNC_FEED_TIMEOUT): a file,
 * a URL (every page) or a RESO pull. Why besides the idle timeouts: a server that sends a byte a
 * second is never idle, and would hold the sync and its chatbot's lease for as long as it liked.
 * The clock starts when the feed starts being opened and stops once it was read to its end.
 */
import { humanDuration } from '../domain/human-duration.js';
import { feedUnreadable } from '../feed/feed-error.js';

export interface FeedDeadline {
  /** Aborted by the sync's own signal (SIGINT/SIGTERM) or when the deadline passes. */
  readonly signal: AbortSignal;
  start(): void;
  /** Stops the clock: the feed was read (or the sync ends). */
  stop(): void;
  /** `thrown` as the feed-timeout error when the deadline is what stopped the read; else `thrown`. */
  explain(thrown: unknown, where: string): unknown;
}

export function feedDeadline(outer: AbortSignal | undefined, deadlineMs: number): FeedDeadline {
  const controller = new AbortController();
  const signal = outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  return {
    signal,
    start() {
      if (timer !== undefined || expired) return;
      timer = setTimeout(() => {
        expired = true;
        controller.abort();
      }, deadlineMs);
      timer.unref();
    },
    stop() {
      clearTimeout(timer);
    },
    explain(thrown, where) {
      // SIGINT first: an interrupted sync says so even when the deadline also passed.
      if (!expired || outer?.aborted === true) return thrown;
      return feedUnreadable(
        `it was still being read after ${humanDuration(deadlineMs)}, the most --feed-timeout allows`,
        where,
        'Check that the server sends the feed at a normal speed, or raise --feed-timeout ' +
          '(env LISTING_SYNC_FEED_TIMEOUT) if it really takes that long.',
        thrown,
      );
    },
  };
}
