/**
 * What a sync run came to, decided once for every way a run ends in the CLI (`sync --wait|--work`,
 * `runs resume`, the demo): refused by the guard, failed, or done.
 */
import { runFailed } from '../domain/run-outcome.js';
import type { RunCounts, RunStatus } from '../store/run-types.js';
import type { SyncResult, SyncSummary } from '../store/run-summary.js';

export type RunVerdict = 'done' | 'failed' | 'refused';

/** A run whose jobs ran: failed or done by the one rule (domain/run-outcome.ts `runFailed`). */
export function jobsVerdict(result: Pick<SyncResult, 'failed'> | undefined, status: RunStatus | undefined): Exclude<RunVerdict, 'refused'> {
  return runFailed({ failedJobs: result?.failed ?? 0, ...(status === undefined ? {} : { status }) }) ? 'failed' : 'done';
}

/** A sync: refused when the guard refused it (nothing was changed), else as its jobs went. */
export function syncVerdict(summary: Pick<SyncSummary, 'guard' | 'result' | 'status'>): RunVerdict {
  return summary.guard.ok ? jobsVerdict(summary.result, summary.status) : 'refused';
}

/** The listing outcomes of a run's live counts, as a summary's `result`. */
export function resultOf(counts: RunCounts): SyncResult {
  return {
    created: counts.created,
    updated: counts.updated,
    deleted: counts.deleted,
    failed: counts.failed,
    superseded: counts.superseded,
    retried: counts.retried,
  };
}
