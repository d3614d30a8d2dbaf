/**
 * The queue's retry delays: BullMQ's custom backoff for the jobs listing-sync enqueues. The
 * formula is the shared one (src/net/backoff.ts `backoffDelay`, capped full jitter), the same
 * one the reads outside the queue wait by.
 */
import { backoffDelay, type BackoffSettings } from '../net/backoff.js';

/** The backoff type every job is enqueued with (job options `backoff.type`). */
export const BACKOFF_TYPE = 'capped-full-jitter';

/** The worker's `settings.backoffStrategy`: the delay after `attemptsMade` failed attempts (1 = first retry). */
export function backoffStrategy(settings: BackoffSettings): (attemptsMade: number) => number {
  return (attemptsMade) => backoffDelay(attemptsMade, settings);
}
