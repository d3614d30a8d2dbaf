/** Records a listing job's outcome (ledger + failed keys + run counts) in one store call. */
import type { JobOutcome } from '../src/store/run-types.js';
import type { FinalFailure, JobContext, JobDeps } from './job-context.js';

interface KeyedData {
  runId: string;
  chatbot: string;
  key: string;
  hash: string;
}

/** A successful write of one key. */
export async function recordWrite(ctx: JobContext<KeyedData>, deps: JobDeps, outcome: JobOutcome, remoteId: string | undefined): Promise<void> {
  const { data } = ctx;
  const now = deps.now();
  const entry = remoteId === undefined ? { hash: data.hash, writtenAt: now, runId: data.runId } : { hash: data.hash, remoteId, writtenAt: now, runId: data.runId };
  await deps.store.jobFinish.finishJob({
    chatbot: data.chatbot, runId: data.runId, jobId: ctx.id, outcome, weight: 1, attempt: ctx.attemptsStarted, now,
    mode: 'write', writes: [{ key: data.key, entry }],
  });
}

/** A job that wrote nothing (superseded, or an edit): only the run counts move. */
export async function recordNoWrite(ctx: JobContext<{ runId: string; chatbot: string }>, deps: JobDeps, outcome: JobOutcome, weight = 1): Promise<void> {
  await deps.store.jobFinish.finishJob({
    chatbot: ctx.data.chatbot, runId: ctx.data.runId, jobId: ctx.id, outcome, weight, attempt: ctx.attemptsStarted, now: deps.now(), mode: 'none',
  });
}

/** A final failure of a job about `keys` (remembered so the next run retries them). */
export async function recordFailure(ctx: JobContext<{ runId: string; chatbot: string }>, deps: JobDeps, keys: readonly string[], failure: FinalFailure, weight: number): Promise<void> {
  const now = deps.now();
  const failures = keys.map((key) => ({ key, jobId: ctx.id, runId: ctx.data.runId, code: failure.code, message: failure.message, attempts: ctx.attemptsStarted, at: now }));
  await deps.store.jobFinish.finishJob({
    chatbot: ctx.data.chatbot, runId: ctx.data.runId, jobId: ctx.id, outcome: 'failed', weight, attempt: ctx.attemptsStarted, now,
    ...(failures.length > 0 ? { mode: 'fail' as const, failures } : { mode: 'none' as const }),
  });
}
