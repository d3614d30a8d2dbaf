/**
 * Waits for a run to end by polling its counts (one HMGET every ~250 ms): cheap, and unlike
 * QueueEvents it needs no stream reader on the hot path and survives worker restarts. Every
 * couple of seconds it also reads the run's status and its chatbot's lease, so that a run that
 * ended without every job finishing (cancelled, stuck) ends the wait, and a run nobody works on
 * is reported instead of waited for in silence.
 */
import { ListingSyncError } from '../shared/errors.js';
import type { FinishedHere } from '../queue/finished-here.js';
import { quietForMs } from '../store/lease.js';
import type { Store } from '../store/store.js';
import { isFinalStatus, type RunCounts } from '../store/run-types.js';
import { ErrorCode } from '../shared/error-codes.js';
import { count, plural } from '../shared/counts.js';

export interface WaitOptions {
  onProgress?: (counts: RunCounts) => void;
  /** Called once each time the run has had no sign of life (no job started or finished) for `idleAfterMs`. */
  onIdle?: (idleMs: number) => void;
  signal?: AbortSignal;
  pollMs?: number;
  /** Give up after this long (throws WAIT_TIMEOUT; the run goes on in the queue). */
  timeoutMs?: number;
  /** When `timeoutMs` started to count (epoch ms; default: when the wait starts). */
  timeoutFrom?: number;
  /** Default 10 s: a working worker beats with every job it starts or finishes. */
  idleAfterMs?: number;
  /**
   * The jobs this process's own workers finish (`sync --work`, `runs resume --work`): the wait
   * reads the counts again as soon as as many of the run's jobs finished here as the last read
   * still missed, instead of at its next poll.
   */
  finishedHere?: FinishedHere;
}

const STATE_EVERY_MS = 2000;

/** The pause between two reads of the counts: a poll interval, cut short by the run's last jobs finishing here. */
interface Pause {
  /** The jobs of the run seen finishing here so far (a carrier's listings each count). */
  seen(): number;
  /** The next pause ends once `missing` more jobs finished here than `seenBefore` (the count taken before the last read). */
  expect(seenBefore: number, missing: number): void;
  /** Waits `ms`, less when the expected jobs finish here or `signal` aborts. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void>;
  stop(): void;
}

function pauseBetweenReads(runId: string, finishedHere: FinishedHere | undefined): Pause {
  let seen = 0;
  let mark = Number.POSITIVE_INFINITY;
  let wake: (() => void) | undefined;
  const stop =
    finishedHere?.((finishedRunId, runJobs) => {
      if (finishedRunId !== runId) return;
      seen += runJobs;
      if (seen >= mark) wake?.();
    }) ?? (() => undefined);
  return {
    seen: () => seen,
    expect(seenBefore, missing) {
      mark = seenBefore + missing;
    },
    async wait(ms, signal) {
      if (seen >= mark || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          wake = undefined;
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    stop,
  };
}

/** How long the run has shown no sign of life, or 0 while it has one (its lease beats). */
async function idleFor(store: Store, runId: string, chatbot: string | undefined): Promise<number> {
  if (chatbot === undefined) return 0;
  const lease = await store.leases.holder(chatbot);
  if (lease === undefined || lease.runId !== runId) return 0;
  // Unknown (a lease marked idle before stop times were noted): no idle line rather than one since 1970.
  return quietForMs(lease) ?? 0;
}

/**
 * Resolves with the counts once every job of the run completed or failed for good, or the run
 * reached a final status (cancelled, stuck); throws WAIT_TIMEOUT after `timeoutMs`.
 */
export async function waitForRun(store: Store, runId: string, options: WaitOptions = {}): Promise<RunCounts> {
  const pollMs = options.pollMs ?? 250;
  const idleAfterMs = options.idleAfterMs ?? 10_000;
  const started = options.timeoutFrom ?? Date.now();
  let lastStateAt = 0;
  let reportedIdle = false;
  const pause = pauseBetweenReads(runId, options.finishedHere);
  try {
    return await pollCounts();
  } finally {
    pause.stop();
  }

  async function pollCounts(): Promise<RunCounts> {
    for (;;) {
      options.signal?.throwIfAborted();
      const seenBefore = pause.seen();
      const counts = await store.runs.runCounts(runId);
      options.onProgress?.(counts);
      if (counts.totalJobs > 0 && counts.finishedJobs >= counts.totalJobs) return counts;
      // Before the run is sealed its total is not known: only the poll interval ends the pause.
      pause.expect(seenBefore, counts.totalJobs > 0 ? counts.totalJobs - counts.finishedJobs : Number.POSITIVE_INFINITY);
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
          ErrorCode.WAIT_TIMEOUT,
          `run ${runId} has not finished after ${Math.round(options.timeoutMs / 1000)} s (${count(counts.finishedJobs)} ` +
            `of ${plural(counts.totalJobs, 'job')} done); it goes on in the queue: follow it with \`listing-sync runs show ` +
            `${runId}\``,
          { details: { runId } },
        );
      }
      await pause.wait(pollMs, options.signal);
    }
  }
}
