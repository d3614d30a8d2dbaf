/**
 * Before and after a listing job's request: the pre-write probe (superseded, cancelled, key
 * claim, look-up-first) and the outcome (ledger + failed keys + claim + run counts), each ONE
 * store call.
 */
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { SyncKeyType } from '../../src/domain/listing.js';
import { ListingSyncError } from '../../src/shared/errors.js';
import type { JobOutcome } from '../../src/store/run-types.js';
import { CLAIM_MS, type PreparedWrite, type WriteTarget } from '../../src/store/write-claims.js';
import { SEND_FENCE_MS, sendWindowMs } from './send-window.js';
import { performance } from 'node:perf_hooks';
import type { FinalFailure, JobContext, JobDeps, JobResult } from './job-context.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

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
  /**
   * The claim's fence (`performance.now()`): a create is sent by then or not at all (the client
   * enforces it, CallContext.sendBy), else `confirm` claims the key again and gives a new one.
   */
  sendBy: number;
  /** Confirms the claim again (a probe); resolves to the new fence. */
  confirm(): Promise<number>;
  /**
   * Runs the write under the claim. If it throws, this start sends nothing more, so the claim is
   * left to the job's next start at once (else that start would wait out the send window).
   */
  underClaim<R>(write: () => Promise<R>): Promise<R>;
}

/** The probe's store call for this start of the job. */
async function probe(ctx: JobContext<KeyedData>, deps: JobDeps): Promise<PreparedWrite> {
  return await deps.store.claims.prepareWrite(claimTarget(ctx), CLAIM_MS, deps.sendWindowMs ?? sendWindowMs());
}

/** The claim's target for this start. */
function claimTarget(ctx: JobContext<KeyedData>): WriteTarget {
  const { data } = ctx;
  return { chatbot: data.chatbot, keyType: data.keyType, key: data.key, runId: data.runId, jobId: ctx.id, attempt: ctx.attemptToken };
}

/** Runs `write`; when it throws, ends this start's hold on the claim (best effort) and rethrows. */
async function underClaim<R>(ctx: JobContext<KeyedData>, deps: JobDeps, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (thrown) {
    // Why best effort: with Redis away the next start just waits out the send window.
    await deps.store.claims.endAttempt(claimTarget(ctx)).catch(() => undefined);
    throw thrown;
  }
}

/** The key is being written by another job, or by an earlier start of this one: wait for it. */
function claimedError(ctx: JobContext<KeyedData>, claimed: Extract<PreparedWrite, { kind: 'claimed' }>): ListingSyncError {
  const by = claimed.earlierAttempt ? 'an earlier start of this job (it may still be sending)' : `job ${claimed.byJob}`;
  return new ListingSyncError(ErrorCode.KEY_CLAIMED, `${ctx.data.key} is being written by ${by}; waiting for it`, {
    retryable: true,
    details: { retryInMs: claimed.retryInMs, byJob: claimed.byJob },
  });
}

/**
 * Claims the key again for a create whose fence passed (a slow lookup, a long wait for a request
 * slot): resolves to the new fence, or throws KEY_CLAIMED when another start or job holds it now
 * (the queue delays the job), or a retryable CLAIM_LOST when the run was cancelled or superseded
 * meanwhile (the next start records that).
 */
async function confirmClaim(ctx: JobContext<KeyedData>, deps: JobDeps): Promise<number> {
  const sentAt = performance.now();
  const again = await probe(ctx, deps);
  if (again.kind === 'go') return sentAt + SEND_FENCE_MS;
  if (again.kind === 'claimed') throw claimedError(ctx, again);
  throw new ListingSyncError(ErrorCode.CLAIM_LOST, `${ctx.data.key}: ${again.kind} while waiting to send; the next start records it`, {
    retryable: true,
  });
}

/**
 * The pre-write probe every create and update makes first, in one store call:
 * - superseded: a newer run already wrote or deleted the key. Why: retrying a week-old failed
 *   job must not undo last night's update; it completes without a request;
 * - cancelled: its run was cancelled; it completes without a request;
 * - claimed: another job, or an earlier start of this one, is writing the key right now; throws
 *   KEY_CLAIMED so the queue delays this job without using an attempt (two writes of one key in
 *   flight is how duplicates happen);
 * - otherwise the key is claimed for this start of the job until its outcome is recorded.
 */
export async function prepareWrite(ctx: JobContext<KeyedData>, deps: JobDeps): Promise<{ finished: JobResult } | WriteGo> {
  const { data } = ctx;
  // Why measured before the probe: the fence must not start later than the claim's confirmation.
  const sentAt = performance.now();
  const prepared = await probe(ctx, deps);
  switch (prepared.kind) {
    case 'superseded':
      await recordNoWrite(ctx, deps, 'superseded');
      return { finished: { outcome: 'superseded', note: `newer run ${prepared.newerRun} already wrote ${data.key}` } };
    case 'cancelled':
      await recordNoWrite(ctx, deps, 'cancelled');
      return { finished: { outcome: 'cancelled', note: `run ${data.runId} was cancelled` } };
    case 'claimed':
      throw claimedError(ctx, prepared);
    case 'go':
      if (prepared.redisRestarted) ctx.log('Redis restarted since this run was planned: looking the key up before creating');
      return {
        entry: prepared.entry,
        lookUpFirst: ctx.attemptsStarted > 1 || prepared.inDoubt || prepared.redisRestarted,
        sendBy: sentAt + SEND_FENCE_MS,
        confirm: () => confirmClaim(ctx, deps),
        underClaim: (write) => underClaim(ctx, deps, write),
      };
  }
}
