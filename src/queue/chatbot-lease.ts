/**
 * One sync per chatbot at a time: taking the chatbot's lease for a new run, or refusing with a
 * message that says who holds it and the ways on. A stale lease (no heartbeat for
 * `staleLeaseMs`) is taken over only once its run is over or its jobs are gone: a run whose jobs
 * still wait in the queue keeps its chatbot, even with nobody working on it (then the refusal
 * names `runs resume ID --work`), because a second run next to it is how listings get written
 * twice.
 */
import type { Queue } from 'bullmq';
import { sleep } from '../net/abortable-sleep.js';
import { ListingSyncError } from '../shared/errors.js';
import { humanDuration } from '../domain/human-duration.js';
import { quietForMs, type LeaseHolder } from '../store/lease.js';
import { isFinalStatus } from '../store/run-types.js';
import type { Store } from '../store/store.js';
import { DEFAULT_RECONCILE, reconcileRun, type ReconcileOptions } from './reconcile-run.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface AcquireChatbot {
  chatbot: string;
  runId: string;
  /** Who is asking, shown to whoever is refused ("host pid 42 (cli)"). */
  holder: string;
  /** Keep trying this long before refusing (`--wait-for-lock`); 0 refuses at once. */
  waitMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
  reconcile?: ReconcileOptions;
  now?: () => number;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** "2026-05-01T10:00:00Z, 2 h 05 min ago": when the run took the chatbot, and how long ago in words. */
function sinceText(lease: LeaseHolder): string {
  return `${when(lease.since)}, ${humanDuration(lease.readAt - lease.since)} ago`;
}

/** Why nobody works on an interrupted run, with a duration people read (never one since 1970). */
function quietText(lease: LeaseHolder): string {
  const quiet = quietForMs(lease);
  if (lease.beat === 0)
    return quiet === undefined
      ? 'the process working on it was stopped'
      : `the process working on it was stopped ${humanDuration(quiet)} ago`;
  return `nothing has worked on it for ${humanDuration(quiet ?? 0)}`;
}

/** The refusal: exit 3 in the CLI, a `skipped` run for a schedule. */
function busy(chatbot: string, lease: LeaseHolder, interrupted: { left: number } | undefined): ListingSyncError {
  const details = { chatbot, runId: lease.runId, holder: lease.holder, since: lease.since, interrupted: interrupted !== undefined };
  if (interrupted !== undefined) {
    return new ListingSyncError(
      ErrorCode.CHATBOT_BUSY,
      `chatbot ${chatbot} is held by run ${lease.runId} (started ${sinceText(lease)} by ${lease.holder}), ` +
        `interrupted with ${interrupted.left} job(s) left: ${quietText(lease)}; nothing was changed. ` +
        `Finish it with \`listing-sync runs resume ${lease.runId} --work\` (or start a worker), ` +
        `or release the chatbot by stopping the run with \`listing-sync runs cancel ${lease.runId}\`.`,
      { details },
    );
  }
  return new ListingSyncError(
    ErrorCode.CHATBOT_BUSY,
    `chatbot ${chatbot} is being synced by run ${lease.runId} (started ${when(lease.since)} by ${lease.holder}); nothing was changed. ` +
      `Wait for it with --wait-for-lock[=DURATION], or stop it with \`listing-sync runs cancel ${lease.runId}\`.`,
    { details },
  );
}

/**
 * Takes the chatbot for `runId`, waiting up to `waitMs` for another run to end; throws
 * CHATBOT_BUSY (with the holder in `details`) when it cannot.
 */
export async function acquireChatbot(store: Store, writes: Queue, request: AcquireChatbot): Promise<void> {
  const reconcile = request.reconcile ?? DEFAULT_RECONCILE;
  const now = request.now ?? Date.now;
  const deadline = now() + (request.waitMs ?? 0);
  for (;;) {
    const attempt = await store.leases.acquire(request.chatbot, request.runId, request.holder);
    if (attempt.acquired) return;
    const { lease } = attempt;
    let interrupted: { left: number } | undefined;
    if (lease.readAt - lease.beat > reconcile.staleLeaseMs) {
      // Stale: end its run if its jobs are gone; take over only when it is over.
      const result = await reconcileRun(store, writes, lease.runId, now(), {
        ...reconcile,
        inspectAfterMs: 0,
        stuckAfterMs: Number.POSITIVE_INFINITY,
      });
      if (result.status === undefined || isFinalStatus(result.status) || result.status === 'planned') {
        if (await store.leases.takeOver(request.chatbot, lease.runId, request.runId, request.holder)) return;
        continue;
      }
      interrupted = { left: result.remaining };
    }
    if (now() >= deadline) throw busy(request.chatbot, lease, interrupted);
    request.signal?.throwIfAborted();
    await sleep(Math.min(request.pollMs ?? 2000, Math.max(1, deadline - now())), request.signal);
    request.signal?.throwIfAborted();
  }
}
