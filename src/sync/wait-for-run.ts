/**
 * Waits for a run to end by polling its counts (one HMGET every ~250 ms): cheap, and unlike
 * QueueEvents it needs no stream reader on the hot path and survives worker restarts. Every
 * couple of seconds it also reads the run's status and its chatbot's lease, so that a run that
 * ended without every job finishing (cancelled, stuck) ends the wait, and a run nobody works on
 * is reported instead of waited for in silence.
 */
import { sleep } from '../abortable-sleep.js';
import { ListingSyncError } from '../errors.js';
import type { Store } from '../store/store.js';
import { isFinalStatus, type RunCounts } from '../store/run-types.js';

export const WAIT_TIMEOUT = 'WAIT_TIMEOUT';

export interface WaitOptions {
  onProgress?: (counts: RunCounts) => void;
  /** Called once each time the run has had no sign of life (no job started or finished) for `idleAfterMs`. */
  onIdle?: (idleMs: number) => void;
  signal?: AbortSignal;
  pollMs?: number;
  /** Give up after this long (throws WAIT_TIMEOUT; the run goes on in the queue). */
  timeoutMs?: number;
  /** Default 10 s: a working worker beats with every job it starts or finishes. */
  idleAfterMs?: number;
}

const STATE_EVERY_MS = 2000;

/** How long the run has shown no sign of life, or 0 while it has one (its lease beats). */
async function idleFor(store: Store, runId: string, chatbot: string | undefined): Promise<number> {
  if (chatbot === undefined) return 0;
  const lease = await store.leases.holder(chatbot);
  if (lease === undefined || lease.runId !== runId) return 0;
  return Math.max(0, lease.readAt - lease.beat);
}

/**
 * Resolves with the counts once every job of the run completed or failed for good, or the run
 * reached a final status (cancelled, stuck); throws WAIT_TIMEOUT after `timeoutMs`.
 */
export async function waitForRun(store: Store, runId: string, options: WaitOptions = {}): Promise<RunCounts> {
  const pollMs = options.pollMs ?? 250;
  const idleAfterMs = options.idleAfterMs ?? 10_000;
  const started = Date.now();
  let lastStateAt = 0;
  let reportedIdle = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const counts = await store.runs.runCounts(runId);
    options.onProgress?.(counts);
    if (counts.totalJobs > 0 && counts.finishedJobs >= counts.totalJobs) return counts;
    if (Date.now() - lastStateAt >= STATE_EVERY_MS) {
      lastStateAt = Date.now();
      const state = await store.runs.runState(runId);
      // Counts again: the last job may have finished between the counts read above and this status.
      if (state.status !== undefined && isFinalStatus(state.status)) return await store.runs.runCounts(runId);
      const idle = await idleFor(store, runId, state.chatbot);
      if (idle >= idleAfterMs && !reportedIdle) options.onIdle?.(idle);
      reportedIdle = idle >= idleAfterMs;
    }
    if (options.timeoutMs !== undefined && Date.now() - started >= options.timeoutMs) {
      throw new ListingSyncError(
        WAIT_TIMEOUT,
        `run ${runId} has not finished after ${Math.round(options.timeoutMs / 1000)} s (${counts.finishedJobs} of ${counts.totalJobs} jobs done); it goes on in the queue: follow it with \`listing-sync runs show ${runId}\``,
        { details: { runId } },
      );
    }
    await sleep(pollMs, options.signal);
  }
}
