/**
 * Before and after a listing job's request: the pre-write probe (superseded, cancelled, key
 * claim, look-up-first) and the outcome (ledger + failed keys + claim + run counts), each ONE
 * store call.
 */
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { SyncKeyType } from '../../src/domain/listing.js';
import { KEY_CLAIMED, ListingSyncError } from '../../src/errors.js';
import type { JobOutcome } from '../../src/store/run-types.js';
import type { FinalFailure, JobContext, JobDeps, JobResult } from './job-context.js';

interface KeyedData {
  runId: string;
  chatbot: string;
  keyType: SyncKeyType;
  key: string;
  hash: string;
}

/** A successful write of one key. */
export async function recordWrite(
  ctx: JobContext<KeyedData>,
  deps: JobDeps,
  outcome: JobOutcome,
  remoteId: string | undefined,
): Promise<void> {
  const { data } = ctx;
  const now = deps.now();
  const entry =
    remoteId === undefined
      ? { hash: data.hash, writtenAt: now, runId: data.runId }
      : { hash: data.hash, remoteId, writtenAt: now, runId: data.runId };
  await deps.store.jobFinish.finishJob({
    chatbot: data.chatbot,
    keyType: data.keyType,
    runId: data.runId,
    jobId: ctx.id,
    outcome,
    weight: 1,
    attempt: ctx.attemptsStarted,
    now,
    mode: 'write',
    writes: [{ key: data.key, entry }],
  });
}

/** A job that wrote nothing (superseded, or an edit): only the run counts move. */
export async function recordNoWrite(
  ctx: JobContext<{ runId: string; chatbot: string }>,
  deps: JobDeps,
  outcome: JobOutcome,
  weight = 1,
): Promise<void> {
  await deps.store.jobFinish.finishJob({
    chatbot: ctx.data.chatbot,
    runId: ctx.data.runId,
    jobId: ctx.id,
    outcome,
    weight,
    attempt: ctx.attemptsStarted,
    now: deps.now(),
    mode: 'none',
  });
}

/** A final failure of a job about `keys` (remembered so the next run retries them). */
export async function recordFailure(
  ctx: JobContext<{ runId: string; chatbot: string; keyType?: SyncKeyType }>,
  deps: JobDeps,
  keys: readonly string[],
  failure: FinalFailure,
  weight: number,
): Promise<void> {
  const now = deps.now();
  const failures = keys.map((key) => ({
    key,
    jobId: ctx.id,
    runId: ctx.data.runId,
    code: failure.code,
    message: failure.message,
    attempts: ctx.attemptsStarted,
    at: now,
  }));
  await deps.store.jobFinish.finishJob({
    chatbot: ctx.data.chatbot,
    ...(ctx.data.keyType ? { keyType: ctx.data.keyType } : {}),
    runId: ctx.data.runId,
    jobId: ctx.id,
    outcome: 'failed',
    weight,
    attempt: ctx.attemptsStarted,
    now,
    ...(failures.length > 0 ? { mode: 'fail' as const, failures } : { mode: 'none' as const }),
  });
}

/** Go ahead with the write: the ledger entry, and whether a create must look its key up first. */
export interface WriteGo {
  entry: LedgerEntry | undefined;
  /**
   * An earlier request for the key may have reached the service: an earlier start of this job
   * (a failed try, a stall after a worker died), another job's claim that expired or failed in
   * doubt, or a Redis restart since the run was planned (the last second may be lost).
   */
  lookUpFirst: boolean;
}

/**
 * The pre-write probe every create and update makes first, in one store call:
 * - superseded: a newer run already wrote or deleted the key. Why: retrying a week-old failed
 *   job must not undo last night's update; it completes without a request;
 * - cancelled: its run was cancelled; it completes without a request;
 * - claimed: another job is writing the key right now; throws KEY_CLAIMED so the queue delays
 *   this job without using an attempt (two writes of one key in flight is how duplicates happen);
 * - otherwise the key is claimed for this job until its outcome is recorded.
 */
export async function prepareWrite(ctx: JobContext<KeyedData>, deps: JobDeps): Promise<{ finished: JobResult } | WriteGo> {
  const { data } = ctx;
  const prepared = await deps.store.claims.prepareWrite({
    chatbot: data.chatbot,
    keyType: data.keyType,
    key: data.key,
    runId: data.runId,
    jobId: ctx.id,
  });
  switch (prepared.kind) {
    case 'superseded':
      await recordNoWrite(ctx, deps, 'superseded');
      return { finished: { outcome: 'superseded', note: `newer run ${prepared.newerRun} already wrote ${data.key}` } };
    case 'cancelled':
      await recordNoWrite(ctx, deps, 'cancelled');
      return { finished: { outcome: 'cancelled', note: `run ${data.runId} was cancelled` } };
    case 'claimed':
      throw new ListingSyncError(KEY_CLAIMED, `${data.key} is being written by job ${prepared.byJob}; waiting for it`, {
        retryable: true,
        details: { retryInMs: prepared.retryInMs, byJob: prepared.byJob },
      });
    case 'go':
      if (prepared.redisRestarted) ctx.log('Redis restarted since this run was planned: looking the key up before creating');
      return { entry: prepared.entry, lookUpFirst: ctx.attemptsStarted > 1 || prepared.inDoubt || prepared.redisRestarted };
  }
}
