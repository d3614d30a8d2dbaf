/** Records a listing job's outcome (ledger + failed keys + run counts) in one store call. */
import type { LedgerEntry } from '../src/domain/ledger-entry.js';
import type { JobOutcome } from '../src/store/run-types.js';
import type { FinalFailure, JobContext, JobDeps, JobResult } from './job-context.js';

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

/**
 * The superseded check every listing write makes first. Why: retrying a week-old failed job must
 * not undo last night's update, so a job whose key a newer run already wrote completes as
 * `superseded` without a request. Otherwise returns the key's current ledger entry, if any.
 */
export async function supersededOrEntry(ctx: JobContext<KeyedData>, deps: JobDeps): Promise<{ superseded: JobResult } | { entry: LedgerEntry | undefined }> {
  const { data } = ctx;
  const probe = await deps.store.ledger.probe(data.chatbot, data.key, data.runId);
  if (probe.newerRun === undefined) return { entry: probe.entry };
  await recordNoWrite(ctx, deps, 'superseded');
  return { superseded: { outcome: 'superseded', note: `newer run ${probe.newerRun} already wrote ${data.key}` } };
}
