/**
 * The two ways on when a run holds its chatbot (`runs cancel`, `runs resume`): cancel stops the
 * run's remaining jobs and frees the chatbot; resume makes an interrupted run workable again
 * (Ctrl-C or a crash of `sync --work`) and judges it once it has finished.
 */
import { UsageError } from '../shared/errors.js';
import { acquireChatbot } from '../queue/chatbot-lease.js';
import { cancelRun, type CancelResult } from '../queue/cancel-run.js';
import type { Queues } from '../queue/queues.js';
import { reconcileRun } from '../queue/reconcile-run.js';
import { syncSummaryOf, type SyncResult, type SyncSummary } from '../store/run-summary.js';
import { isFinalStatus, type RunCounts, type RunRecord, type RunStatus } from '../store/run-types.js';
import type { Store } from '../store/store.js';
import { jobsVerdict, resultOf, syncVerdict, type RunVerdict } from './run-verdict.js';
import { processHolder } from './sync-lease.js';

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

/** Makes an interrupted run workable again and takes its chatbot for it. */
export async function takeBackRun(deps: RunControlDeps, run: RunRecord, signal: AbortSignal | undefined): Promise<void> {
  const { store, writes } = deps;
  if (run.status === 'enqueuing')
    await reconcileRun(store, writes, run.id, Date.now(), {
      staleLeaseMs: 30_000,
      inspectAfterMs: 0,
      stuckAfterMs: Number.POSITIVE_INFINITY,
    });
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
