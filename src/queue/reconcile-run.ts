/**
 * Ends runs that nothing else would end: the reconciler's step for one open run, also used when a
 * sync finds its chatbot's lease stale. Why it exists: a run ends when its last job records its
 * outcome, so a job that never will (removed by hand in bull-board, lost with Redis's last
 * second, never added because the enqueuing process died, failed while Redis was unreachable)
 * would leave the run "running" forever and its chatbot held.
 *
 * - enqueuing, while the enqueuing process still beats its lease: left alone;
 * - enqueuing, holder gone: sealed with the jobs it listed; those not in the queue are lost;
 * - running or stuck: listed jobs gone from the queue without an outcome are recorded as failed
 *   (JOB_LOST), failed ones without a recorded outcome as failed; then the run settles if every
 *   job has an outcome; a running run with no progress for `stuckAfterMs` and no job held by a
 *   worker is marked stuck (it frees its chatbot, and may still end when its jobs finish).
 */
import type { Queue } from 'bullmq';
import type { Store } from '../store/store.js';
import { isFinalStatus, type RunStatus } from '../store/run-types.js';
import { inspectRun } from './run-inspection.js';

export interface ReconcileOptions {
  /** A lease without a heartbeat for this long is stale (its holder died or stopped). */
  staleLeaseMs: number;
  /** Inspect a running run's jobs only after this long without progress (inspection reads every job). */
  inspectAfterMs: number;
  /** Mark a run stuck after this long without progress and with no job held by a worker. */
  stuckAfterMs: number;
}

export const DEFAULT_RECONCILE: Readonly<ReconcileOptions> = { staleLeaseMs: 30_000, inspectAfterMs: 30_000, stuckAfterMs: 30 * 60_000 };

export interface ReconcileResult {
  /** The run's status afterwards; undefined when the run record no longer exists. */
  status?: RunStatus;
  /** Jobs recorded as failed because they were gone or failed unrecorded. */
  recorded: number;
  /** Jobs without an outcome that still exist in the queue. */
  remaining: number;
  /** Whether the run's jobs were read from the queue (inspectRun: one read per unfinished job). */
  inspected: boolean;
}

async function recordLost(store: Store, runId: string, chatbot: string, jobIds: readonly string[], now: number): Promise<void> {
  for (const jobId of jobIds) {
    await store.jobFinish.finishJob({ chatbot, runId, jobId, outcome: 'failed', weight: 1, attempt: 1, now, mode: 'none' });
  }
}

async function leaseIsLive(store: Store, chatbot: string, runId: string, staleMs: number): Promise<boolean> {
  const lease = await store.leases.holder(chatbot);
  return lease !== undefined && lease.runId === runId && lease.readAt - lease.beat <= staleMs;
}

/** One reconciliation step for one run (safe to run from several processes at once). */
export async function reconcileRun(
  store: Store,
  writes: Queue,
  runId: string,
  now: number,
  options: ReconcileOptions = DEFAULT_RECONCILE,
): Promise<ReconcileResult> {
  const state = await store.runs.runState(runId);
  if (state.status === undefined || state.chatbot === undefined) {
    await store.runs.closeOpen(runId);
    return { recorded: 0, remaining: 0, inspected: false };
  }
  const { chatbot } = state;
  if (state.status === 'planned' || (isFinalStatus(state.status) && state.status !== 'stuck')) {
    await store.runs.closeOpen(runId);
    return { status: state.status, recorded: 0, remaining: 0, inspected: false };
  }
  if (state.status === 'enqueuing' && (await leaseIsLive(store, chatbot, runId, options.staleLeaseMs))) {
    return { status: state.status, recorded: 0, remaining: state.totalJobs - state.finishedJobs, inspected: false };
  }
  const idleMs = now - (state.progressAt ?? state.startedAt ?? now);
  const needsInspection = state.status === 'enqueuing' || state.finishedJobs < state.totalJobs;
  if (!needsInspection)
    return { status: (await store.runs.settleRun(runId, chatbot, now)) ?? state.status, recorded: 0, remaining: 0, inspected: false };
  if (state.status !== 'enqueuing' && idleMs < options.inspectAfterMs)
    return { status: state.status, recorded: 0, remaining: state.totalJobs - state.finishedJobs, inspected: false };

  const inspection = await inspectRun(store, writes, runId);
  const lost = [...inspection.missing, ...inspection.failedUnrecorded.map((f) => f.jobId)];
  await recordLost(store, runId, chatbot, lost, now);
  if (state.status === 'enqueuing') await store.runs.sealRun(runId, chatbot, inspection.listed, now);
  const settled = await store.runs.settleRun(runId, chatbot, now);
  const remaining = inspection.unfinished.length - lost.length;
  if (settled !== undefined) return { status: settled, recorded: lost.length, remaining: 0, inspected: true };
  if (remaining > 0 && inspection.active === 0 && idleMs >= options.stuckAfterMs) {
    const minutes = Math.round(idleMs / 60_000);
    await store.runs.markStuck(
      runId,
      chatbot,
      now,
      `${remaining} job(s) without progress for ${minutes} min and none being worked on (no worker running? queue paused?)`,
    );
    return { status: 'stuck', recorded: lost.length, remaining, inspected: true };
  }
  return { status: (await store.runs.runState(runId)).status ?? state.status, recorded: lost.length, remaining, inspected: true };
}
