/**
 * Turns a BullMQ job into the plain context jobs/ processors take, validates its payload, runs
 * the registered kind, carries out the split a carrier returns (carrier-split.ts), and routes
 * failures through error-mapping.ts. A final failure is recorded (failed keys + run outcome)
 * before BullMQ is told, so a run's counts never miss a job.
 */
import { randomUUID } from 'node:crypto';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { FinalFailure, JobContext, JobDeps, JobQueueName, JobResult } from '../../jobs/support/job-context.js';
import { anyJobKind, jobKind, type ListingQueueKind } from '../../jobs/registry.js';
import { errorCode, errorFields } from '../shared/errors.js';
import { describeFailure, mapError, type ErrorMappingContext } from './error-mapping.js';
import { ErrorCode } from '../shared/error-codes.js';
import { issueLines } from '../shared/zod-issues.js';
import type { WriteListingsData } from '../../jobs/write-listings.js';
import { carryOutSplit } from './carrier-split.js';
import { passGate, type JobGate } from './job-gate.js';
import { unsealData } from './job-seal.js';
import { queueDisplayName } from './queues.js';

/** The run a job's payload names ('' when it names none). */
export function runIdOf(data: unknown): string {
  const runId = typeof data === 'object' && data !== null ? (data as { runId?: unknown }).runId : undefined;
  return typeof runId === 'string' ? runId : '';
}

/**
 * The plain context for a job (also used to record failures of jobs that never ran here).
 * `token`: BullMQ's lock token for this start of the job, which names the start in key claims; a
 * context made without one gets a name of its own, so it never passes for another start.
 */
export function contextOf<T>(job: Job, data: T, token?: string): JobContext<T> {
  return {
    id: job.id ?? '',
    name: job.name,
    data,
    attemptsMade: job.attemptsMade,
    attemptsStarted: Math.max(1, job.attemptsStarted) + startedBefore(data),
    attemptToken: token ?? `untracked-${randomUUID()}`,
    runId: runIdOf(data),
    // Why not awaited: a log line is for humans; it must not slow or fail the write.
    log: (line) => void job.log(line).catch(() => undefined),
  };
}

/** Starts a listing had inside a carrier before its own job (listing-job-data.ts `startedBefore`). */
function startedBefore(data: unknown): number {
  const value = typeof data === 'object' && data !== null ? (data as { startedBefore?: unknown }).startedBefore : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/** The kind that runs `job`: the one registered under its name for the queue it is in. */
function kindOf(job: Job): ListingQueueKind {
  const queue = queueDisplayName(job.queueName) as Exclude<JobQueueName, 'alerts'>;
  const kind = jobKind(queue, job.name);
  if (kind === undefined) throw new UnrecoverableError(`UNKNOWN_JOB: no processor for job name "${job.name}" in queue ${queue}`);
  return kind;
}

/** Parses a job's payload: `data` when the gate gave it, else the job's data without its seal. */
function parse(kind: ListingQueueKind, job: Job, data: unknown = unsealData(job.data).payload): unknown {
  const parsed = kind.schema.safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`INVALID_JOB_DATA: ${issueLines(parsed.error.issues).join('; ')}`);
  return parsed.data;
}

/** Records a job's final failure through its kind; never throws (logging instead). */
export async function recordFinalFailure(job: Job, failure: FinalFailure, deps: JobDeps): Promise<void> {
  try {
    const kind = kindOf(job);
    await kind.onFinalFailure(contextOf(job, parse(kind, job)), deps, failure);
  } catch (thrown) {
    deps.logger.error(
      { job: job.id, err: thrown instanceof Error ? thrown.message : String(thrown) },
      'could not record a final job failure',
    );
  }
}

/**
 * A job whose name or payload no processor accepts fails at once; its run still counts it (from
 * the raw runId/chatbot), or the run would wait forever for a job that can never finish.
 */
async function rejectMalformed(job: Job, payload: unknown, deps: JobDeps): Promise<{ kind: ListingQueueKind; data: unknown }> {
  try {
    const kind = kindOf(job);
    return { kind, data: parse(kind, job, payload) };
  } catch (thrown) {
    const chatbot = typeof payload === 'object' && payload !== null ? (payload as { chatbot?: unknown }).chatbot : undefined;
    const runId = runIdOf(payload);
    // A carrier's run counts its listings, not the carrier: the reconciler records those of a
    // failed carrier (run-inspection.ts), as it does a job that failed unrecorded.
    if (runId !== '' && typeof chatbot === 'string' && anyJobKind(job.name)?.carries?.(job.id ?? '') !== true) {
      await deps.store.jobFinish.finishJob({
        chatbot,
        runId,
        jobId: job.id ?? '',
        outcome: 'failed',
        weight: 1,
        attempt: Math.max(1, job.attemptsStarted),
        now: deps.now(),
        mode: 'none',
      });
    }
    throw thrown;
  }
}

/** Longest wait before a job whose key another job is writing looks again. */
const CLAIM_WAIT_MAX_MS = 1000;

/**
 * How long a job whose key is claimed waits: until the claim would expire, at most
 * CLAIM_WAIT_MAX_MS (the other write usually ends within a request), with jitter so that
 * several waiters do not look again in lockstep.
 */
function claimWaitMs(thrown: unknown): number {
  const { retryInMs } = errorFields(thrown).details;
  const remaining = typeof retryInMs === 'number' ? retryInMs : CLAIM_WAIT_MAX_MS;
  return Math.max(50, Math.round(Math.min(remaining, CLAIM_WAIT_MAX_MS) * (0.5 + Math.random() / 2)));
}

/**
 * Whether this attempt is the job's last: the worker's own attempt budget (LISTING_SYNC_ATTEMPTS
 * of the process that runs the job), within the ceiling the job was enqueued with.
 */
export function isLastAttempt(job: Pick<Job, 'attemptsMade' | 'opts'>, workerAttempts: number | undefined): boolean {
  return job.attemptsMade + 1 >= Math.min(job.opts.attempts ?? 1, workerAttempts ?? Number.POSITIVE_INFINITY);
}

/**
 * The function BullMQ calls for each job of the writes and sync-runs queues. `gate`: what checks
 * each job first (job-gate.ts: enqueued by listing-sync, for this worker's service). `attempts`:
 * this worker's attempt budget per job (unset: the job's own).
 *
 * Why it takes two parameters: BullMQ gives a processor that declares a third an AbortSignal of
 * its own per job (an AbortController, and an abort listener on each request it is handed to),
 * aborted only by `Worker.cancelJob` and `cancelAllJobs`, which nothing here calls (BullMQ's
 * `close(force)` does not abort it either).
 */
export function createProcessor(
  deps: JobDeps,
  mapping: ErrorMappingContext,
  gate: JobGate,
  attempts?: number,
): (job: Job, token?: string) => Promise<JobResult> {
  // Why every failure is scrubbed here: BullMQ stores the thrown error's message and stack (the
  // failedReason, the stacktrace, the events stream) and the run records its Code and Message; a
  // secret a service or a feed echoed must be gone before any of them is written.
  const scrubbed = <T>(thrown: T): T => deps.scrubber?.error(thrown) ?? thrown;
  const run = async (job: Job, token?: string): Promise<JobResult> => {
    const { kind, data } = await rejectMalformed(job, await passGate(job, token, gate), deps);
    try {
      const ctx = contextOf(job, data, token);
      const result = await kind.process(ctx, deps);
      if (!('splitOff' in result)) return result;
      // Why here, inside the try: a cause that does not split is thrown by the split, and fails
      // (or puts back) the whole carrier exactly as if the carrier had thrown it.
      if (kind.carries?.(ctx.id) !== true) throw new Error(`${job.name} job ${ctx.id} returned a split but carries no listings`);
      return await carryOutSplit(data as WriteListingsData, result, { job, queue: mapping.queue, mapping, claimWait: claimWaitMs }, deps);
    } catch (raw) {
      const thrown = scrubbed(raw);
      // Another job is writing this key: wait without using an attempt (not a failure).
      if (errorCode(thrown) === ErrorCode.KEY_CLAIMED && token !== undefined) {
        await job.moveToDelayed(Date.now() + claimWaitMs(thrown), token);
        throw new DelayedError();
      }
      const { toThrow, final } = await mapError(thrown, mapping, isLastAttempt(job, attempts));
      if (final) await recordFinalFailure(job, describeFailure(thrown), deps);
      throw toThrow;
    }
  };
  return async (job, token) => {
    try {
      return await run(job, token);
    } catch (thrown) {
      throw scrubbed(thrown);
    }
  };
}
