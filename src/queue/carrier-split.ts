/**
 * What a write-listings carrier (jobs/write-listings.ts) asks of the queue: which failures split
 * it, and the split itself — each listing given a write-listings batch of its own, under the id
 * it would have had alone, with the carrier's options (attempts ceiling, backoff, retention, turn).
 */
import type { Job, JobsOptions, Queue } from 'bullmq';
import type { CarriedListing, CarrierHooks, JobDeps } from '../../jobs/support/job-context.js';
import { WRITE_LISTINGS, type WriteListingsData } from '../../jobs/write-listings.js';
import { backoffDelay } from '../net/backoff.js';
import { errorCode } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { classifyError, serviceVerdict, type ErrorMappingContext } from './error-mapping.js';

/** How long a listing whose key another job is writing waits before its own job looks again. */
export type ClaimWait = (thrown: unknown) => number;

/**
 * Whether `thrown` splits a carrier. Why not every failure: an outage, a rate limit, a rejected
 * credential or a held queue is the queue's to wait out (it puts the job back without using an
 * attempt); split, the carrier's listings would each wait it out as jobs of their own.
 */
function splits(thrown: unknown, mapping: ErrorMappingContext): boolean {
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

/** The hooks of carrier `job` (its parsed data `carrier`), run by a worker of `queue`. */
export function carrierHooks(carrier: WriteListingsData, { job, queue, mapping, claimWait }: CarrierQueue, deps: JobDeps): CarrierHooks {
  return {
    splitsOn: (thrown) => splits(thrown, mapping),
    async splitOff(items: readonly CarriedListing[], cause: unknown): Promise<number> {
      if (items.length === 0) return 0;
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
      return jobs.length;
    },
  };
}
