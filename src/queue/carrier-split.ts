/**
 * What the queue does with the split a write-listings carrier (jobs/write-listings.ts) returns:
 * decides whether its cause splits the carrier, and if so makes the split — each listing given a
 * write-listings batch of its own, under the id it would have had alone, with the carrier's
 * options (attempts ceiling, backoff, retention, turn).
 */
import type { Job, JobsOptions, Queue } from 'bullmq';
import type { CarriedListing, CarrierSplit, JobDeps, JobResult } from '../../jobs/support/job-context.js';
import { WRITE_LISTINGS, type WriteListingsData } from '../../jobs/write-listings.js';
import { backoffDelay } from '../net/backoff.js';
import { errorCode } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { classifyError, serviceVerdict, type ErrorMappingContext } from './error-mapping.js';

/** How long a listing whose key another job is writing waits before its own job looks again. */
export type ClaimWait = (thrown: unknown) => number;

/**
 * Whether a split whose first listing threw `thrown` (undefined: none did, the carrier was started
 * again) is made. Why not on every failure: an outage, a rate limit, a rejected credential or a
 * held queue is the queue's to wait out (it puts the job back without using an attempt); split,
 * the carrier's listings would each wait it out as jobs of their own.
 */
function splits(thrown: unknown, mapping: ErrorMappingContext): boolean {
  if (thrown === undefined) return true;
  if (errorCode(thrown) === ErrorCode.KEY_CLAIMED) return true;
  const verdict = classifyError(thrown, mapping.retryTable);
  if (verdict === 'retry') return !(mapping.breaker?.isOpen() === true && serviceVerdict(thrown, mapping.retryTable) === 'down');
  return verdict === 'fatal';
}

/** The first split listing's delay: a claim wait, a first retry's backoff, or none (a rejection fails at once on its own). */
function delayOf(cause: unknown, job: Job, mapping: ErrorMappingContext, claimWait: ClaimWait): number {
  if (cause === undefined) return 0;
  if (errorCode(cause) === ErrorCode.KEY_CLAIMED) return claimWait(cause);
  if (classifyError(cause, mapping.retryTable) !== 'retry') return 0;
  const baseMs = job.opts.backoff !== undefined && typeof job.opts.backoff === 'object' ? (job.opts.backoff.delay ?? 0) : 0;
  return backoffDelay(1, { baseMs, maxMs: baseMs });
}

/** The options of a split listing's job: the carrier's, under the listing's own id. */
function optionsOf(job: Job, id: string, delay: number): JobsOptions {
  const { attempts, backoff, removeOnComplete, removeOnFail, priority } = job.opts;
  return {
    jobId: id,
    ...(attempts === undefined ? {} : { attempts }),
    ...(backoff === undefined ? {} : { backoff }),
    ...(removeOnComplete === undefined ? {} : { removeOnComplete }),
    ...(removeOnFail === undefined ? {} : { removeOnFail }),
    ...(priority === undefined || priority === 0 ? {} : { priority }),
    ...(delay > 0 ? { delay } : {}),
  };
}

/** The queue's side of a carrier: its job, the queue it runs in, and how its failures are judged and timed. */
export interface CarrierQueue {
  job: Job;
  queue: Queue;
  mapping: ErrorMappingContext;
  claimWait: ClaimWait;
}

/**
 * Gives each of `items` a job of its own (its own id; an add of an id still in the queue adds
 * nothing), the first delayed as `cause` asks (a claim wait, a backoff) and counted as started once.
 */
async function addBatchesOfOne(
  carrier: WriteListingsData,
  items: readonly CarriedListing[],
  cause: unknown,
  { job, queue, mapping, claimWait }: CarrierQueue,
  deps: JobDeps,
): Promise<void> {
  if (items.length === 0) return;
  const started = Math.max(1, job.attemptsStarted);
  const { runId, chatbot, keyType } = carrier;
  const jobs = items.map((item, i) => {
    // The listing that failed was started by this start of the carrier; the others were
    // started by its earlier starts only (none, on a first start).
    const startedBefore = i === 0 && cause !== undefined ? started : started - 1;
    const data: WriteListingsData = { runId, chatbot, keyType, items: [item], ...(startedBefore > 0 ? { startedBefore } : {}) };
    return { name: WRITE_LISTINGS, data, opts: optionsOf(job, item.id, i === 0 ? delayOf(cause, job, mapping, claimWait) : 0) };
  });
  const at = deps.now();
  // The key index first, as enqueue.ts does: `jobs find KEY` then knows the job before it exists.
  await deps.store.keyIndex.recordTouches(items.map((item) => ({ chatbot, key: item.data.key, runId, jobId: item.id, at })));
  await queue.addBulk(jobs);
}

/**
 * Carries out the split carrier `job` (its parsed data `carrier`) returned. A cause that does not
 * split is thrown, for the processor to handle as the carrier's own failure (the whole carrier
 * put back); else its listings are added. The result BullMQ keeps is the outcome and note alone:
 * the cause is an error, which may hold a secret and does not serialise.
 */
export async function carryOutSplit(
  carrier: WriteListingsData,
  split: CarrierSplit,
  queue: CarrierQueue,
  deps: JobDeps,
): Promise<JobResult> {
  const { items, cause } = split.splitOff;
  if (!splits(cause, queue.mapping)) throw cause;
  await addBatchesOfOne(carrier, items, cause, queue, deps);
  return { outcome: split.outcome, note: split.note };
}
