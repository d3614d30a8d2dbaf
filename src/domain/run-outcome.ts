/**
 * The one rule of "did this run fail?". Every reader of a run asks it here: the CLI's exit code
 * (src/sync/run-verdict.ts), a chatbot's health (domain/health/status.ts), and the Lua script that
 * settles a run in Redis (SETTLE_RUN_LUA in src/store/run-lua.ts), which cannot import TypeScript
 * and is tested against `settledStatus` instead (test/integration/run-outcome-lua.test.ts).
 */

/** Statuses of a run that ended before its jobs finished: stopped by hand, or nobody working on it. */
const ENDED_UNFINISHED: ReadonlySet<string> = new Set(['cancelled', 'stuck']);

/** Statuses a run may settle from once its jobs all finished (settled runs again: a retried job may turn failed into done). */
const SETTLES_FROM: ReadonlySet<string> = new Set(['running', 'stuck', 'done', 'failed']);

/** What the rule reads of a run. */
export interface RunOutcomeFacts {
  /** The run record's status (planned, running, done, failed, cancelled, stuck, …); undefined when unknown. */
  status?: string;
  /** Jobs of the run that failed for good. */
  failedJobs: number;
}

/** True when the run ended before its jobs finished (cancelled, stuck). */
export function endedUnfinished(status: string | undefined): boolean {
  return status !== undefined && ENDED_UNFINISHED.has(status);
}

/**
 * Did this run fail? Yes when some job failed for good (its record then says failed), or when it
 * ended without its jobs finishing (cancelled, stuck). Why both: either way the chatbot does not
 * hold what the feed says. A refusal or a skip is not a failure: nothing was changed.
 */
export function runFailed(run: RunOutcomeFacts): boolean {
  return run.failedJobs > 0 || run.status === 'failed' || endedUnfinished(run.status);
}

/** What the settling script reads of a run record. */
export interface SettleFacts {
  status: string | undefined;
  totalJobs: number;
  finishedJobs: number;
  failedJobs: number;
}

/**
 * The status a run settles in once every job of it has a final outcome: failed when any failed
 * for good (runFailed), else done. Undefined while jobs remain, or when the run is in no state to
 * settle (planned, enqueuing, refused, cancelled, skipped). SETTLE_RUN_LUA is this rule in Lua.
 */
export function settledStatus(run: SettleFacts): 'done' | 'failed' | undefined {
  if (run.status === undefined || !SETTLES_FROM.has(run.status)) return undefined;
  if (run.finishedJobs < run.totalJobs) return undefined;
  return runFailed({ failedJobs: run.failedJobs }) ? 'failed' : 'done';
}
