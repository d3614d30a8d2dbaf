/**
 * The two ways on when a run holds its chatbot (`runs cancel`, `runs resume`): cancel stops the
 * run's remaining jobs and frees the chatbot; resume makes an interrupted run workable again
 * (Ctrl-C or a crash of `sync --work`) and judges it once it has finished.
 */
import { ListingSyncError, UsageError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { sleep } from '../net/abortable-sleep.js';
import { acquireChatbot } from '../queue/chatbot-lease.js';
import { cancelRun, type CancelResult } from '../queue/cancel-run.js';
import type { Queues } from '../queue/queues.js';
import { reconcileRun } from '../queue/reconcile-run.js';
import { syncSummaryOf, type SyncResult, type SyncSummary } from '../store/run-summary.js';
import { isFinalStatus, type RunCounts, type RunRecord, type RunStatus } from '../store/run-types.js';
import type { Store } from '../store/store.js';
import { jobsVerdict, resultOf, syncVerdict, type RunVerdict } from './run-verdict.js';
import { holderIsGone, processHolder } from './sync-lease.js';
import { PLANNING_BEAT_MS } from './hold-chatbot.js';

/** The store and queue a run-control step works on. */
export interface RunControlDeps {
  store: Store;
  writes: Queues['writes'];
}

/** The run `id`; a usage error (exit 2) naming where to look when there is none. */
export async function runOrUsageError(store: Store, id: string): Promise<RunRecord> {
  const run = await store.runs.getRun(id);
  if (!run) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
  return run;
}

/** Whether `run` is over for good: a stuck run is final but can still be resumed. */
export function runHasEnded(run: RunRecord): boolean {
  return isFinalStatus(run.status) && run.status !== 'stuck';
}

/** Stops run `id` now: its waiting jobs removed, its chatbot freed (a usage error when there is no such run). */
export async function cancelRunNow(deps: RunControlDeps, id: string): Promise<CancelResult> {
  const result = await cancelRun(deps.store, deps.writes, id, Date.now());
  if (result === undefined) throw new UsageError(`no run ${id} (see \`listing-sync runs list\`)`);
  return result;
}

/** A lease without a beat for this long is its stopped holder's (the reconciler's staleness). */
const STALE_LEASE_MS = 30_000;

/**
 * Seals a run whose sync stopped while enqueuing, with the jobs that made it into the queue.
 * Why it may wait: a sync stopped while its chatbot's Redis was away (a Cluster failover) could
 * not mark its lease idle, and a lease that still looks alive may be a sync still enqueuing. It
 * is taken as stopped when its holder is a process of this host that is gone, or once it has
 * not beaten for STALE_LEASE_MS (a sync beats every 5 s, and so does each job of the run that
 * finishes, wherever it is worked).
 */
async function sealStoppedEnqueue(deps: RunControlDeps, run: RunRecord, signal: AbortSignal | undefined): Promise<void> {
  const { store, writes } = deps;
  const end = Date.now() + STALE_LEASE_MS + PLANNING_BEAT_MS;
  for (;;) {
    const lease = await store.leases.holder(run.chatbot);
    // Its sync's process gone (this host's): the lease is stale whatever beat it last.
    const staleLeaseMs = lease?.runId === run.id && holderIsGone(lease.holder) ? -1 : STALE_LEASE_MS;
    const { status } = await reconcileRun(store, writes, run.id, Date.now(), {
      staleLeaseMs,
      inspectAfterMs: 0,
      stuckAfterMs: Number.POSITIVE_INFINITY,
    });
    if (status !== 'enqueuing') return;
    if (Date.now() >= end)
      throw new ListingSyncError(
        ErrorCode.CHATBOT_BUSY,
        `run ${run.id} is still being enqueued (its sync's lease on ${run.chatbot} beats): let that sync finish, or stop it first`,
      );
    await sleep(1000, signal);
    signal?.throwIfAborted();
  }
}

/** Makes an interrupted run workable again and takes its chatbot for it. */
export async function takeBackRun(deps: RunControlDeps, run: RunRecord, signal: AbortSignal | undefined): Promise<void> {
  const { store, writes } = deps;
  if (run.status === 'enqueuing') await sealStoppedEnqueue(deps, run, signal);
  if (run.status === 'stuck') await store.runs.reopenStuck(run.id);
  // Re-entrant for the run's own lease, stale or not; refused when another run took the chatbot meanwhile.
  await acquireChatbot(store, writes, {
    chatbot: run.chatbot,
    runId: run.id,
    holder: processHolder('resume'),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** A resumed run once it finished: a sync's summary, or for a bulk chatbot edit its counts alone. */
export type ResumedRun =
  | { kind: 'sync'; summary: SyncSummary; verdict: RunVerdict }
  | { kind: 'jobs'; result: SyncResult; status: RunStatus; verdict: RunVerdict };

/** Judges `run` from what waiting for it found (`status` undefined: the run record's own). */
export function resumedRun(run: RunRecord, counts: RunCounts, waitedStatus: RunStatus | undefined): ResumedRun {
  const result = resultOf(counts);
  const summary = syncSummaryOf(run.summary);
  const status = waitedStatus ?? run.status;
  if (summary !== undefined) {
    const finished: SyncSummary = { ...summary, result, status, finishedAt: new Date().toISOString() };
    return { kind: 'sync', summary: finished, verdict: syncVerdict(finished) };
  }
  return { kind: 'jobs', result, status, verdict: jobsVerdict(result, status) };
}
