/**
 * Ops views over the writes queue: failed jobs with their Code/Message, re-queueing them, and
 * every job that touched a listing key.
 */
import type { Job, Queue } from 'bullmq';
import type { Store } from '../store/store.js';
import { listedJobOf } from '../store/carried-ids.js';
import { ErrorCode } from '../shared/error-codes.js';
import { listingJobNameOf } from '../../jobs/plan-jobs.js';
import { ownListingOf, WRITE_LISTINGS, writeListingsDataSchema } from '../../jobs/write-listings.js';
import { unsealData, type JobTarget } from './job-seal.js';

export interface FailedJobRow {
  jobId: string;
  name: string;
  runId: string;
  chatbot: string;
  key: string;
  attempts: number;
  code: string;
  message: string;
  /** The listing's Address and City as the job would have written them (empty for a delete or a carrier of many). */
  address: string;
  city: string;
  /** The service the job was planned for (its seal's target); absent on a job without a seal. */
  target?: JobTarget;
}

function text(data: unknown, field: string): string {
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.join(',');
  return '';
}

/** Splits a failedReason "ENVELOPE_FAILURE 400: Status: must be …" into code and message. */
export function splitFailure(reason: string | undefined): { code: string; message: string } {
  const line = reason ?? '';
  const at = line.indexOf(': ');
  if (at > 0 && /^[A-Z_]+( \d+)?$/.test(line.slice(0, at))) return { code: line.slice(0, at), message: line.slice(at + 2) };
  return { code: ErrorCode.UNKNOWN, message: line };
}

/** The listing a create or update job writes (`data.listing`), so a failure can name where it is. */
function listingOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>).listing : undefined;
}

/**
 * How a job shows, per listing: a listing's own write-listings batch (a batch of one under the
 * listing's id, jobs/write-listings.ts) as the create or update it holds, every other job as it is.
 */
function shownJob(job: Job): { name: string; data: unknown } {
  if (job.name !== WRITE_LISTINGS) return { name: job.name, data: job.data };
  const parsed = writeListingsDataSchema.safeParse(unsealData(job.data).payload);
  const own = parsed.success ? ownListingOf(job.id ?? '', parsed.data) : undefined;
  return own === undefined ? { name: job.name, data: job.data } : { name: own.name, data: own.data };
}

function rowOf(job: Job): FailedJobRow {
  const { code, message } = splitFailure(job.failedReason);
  const { name, data } = shownJob(job);
  const listing = listingOf(data);
  const row: FailedJobRow = {
    jobId: job.id ?? '',
    name,
    runId: text(data, 'runId'),
    chatbot: text(data, 'chatbot'),
    key: text(data, 'key') || text(data, 'keys') || carriedKeys(data),
    attempts: job.attemptsMade,
    code,
    message,
    address: text(listing, 'Address'),
    city: text(listing, 'City'),
  };
  const target = unsealData(job.data).seal?.target;
  return target === undefined ? row : { ...row, target };
}

async function failedJobs(writes: Queue, store: Store, runId?: string): Promise<Job[]> {
  if (runId === undefined) return (await writes.getFailed(0, -1)).filter((job): job is Job => job !== undefined);
  const jobs = await queueJobsOfFailed(writes, store, runId);
  return jobs.filter((job) => job.failedReason !== undefined);
}

/**
 * The queue jobs that hold the run's failed jobs: each its own, or, for a listing that failed in
 * its carrier (a carrier that failed for good: jobs/write-listings.ts), the carrier, once.
 */
async function queueJobsOfFailed(writes: Queue, store: Store, runId: string): Promise<Job[]> {
  const outcomes = await store.runs.jobOutcomes(runId);
  const ids = [...outcomes].filter(([, outcome]) => outcome === 'failed').map(([id]) => id);
  const own = await Promise.all(ids.map((id) => writes.getJob(id)));
  const jobs = own.filter((job): job is Job => job !== undefined);
  if (jobs.length === ids.length) return jobs;
  // Why only now: the run's job list is long (one entry per listing), and most failed jobs are their own.
  const carrierOf = new Map((await store.runs.listedJobs(runId)).map((listed) => [listed.id, listed.carrier]));
  const carriers = new Set(ids.filter((_, i) => own[i] === undefined).flatMap((id) => carrierOf.get(id) ?? []));
  const held = await Promise.all([...carriers].map((id) => writes.getJob(id)));
  return [...jobs, ...held.filter((job): job is Job => job !== undefined)];
}

/** The listing keys a carrier's listings are about ('' for any other job). */
function carriedKeys(data: unknown): string {
  const items: unknown = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).items : undefined;
  return Array.isArray(items)
    ? items
        .map((item) => text(typeof item === 'object' && item !== null ? (item as Record<string, unknown>).data : undefined, 'key'))
        .join(',')
    : '';
}

/** Failed jobs (of one run, or all still kept by retention). */
export async function listFailedJobs(writes: Queue, store: Store, runId?: string): Promise<FailedJobRow[]> {
  return (await failedJobs(writes, store, runId)).map(rowOf);
}

/** Listings a job is about: the length of its `keys` (a delete batch), else one. */
function listingsOf(job: Job): number {
  const data = typeof job.data === 'object' && job.data !== null ? (job.data as Record<string, unknown>) : {};
  const many: unknown = data.keys ?? data.items;
  return Array.isArray(many) ? many.length : 1;
}

/** A run's jobs whose recorded outcome is `failed`, as the queue holds them now. */
export interface RunFailures {
  /** Failed for good and still kept: attempts spent, not retried since. */
  failed: FailedJobRow[];
  /** Retried since they failed and not finished again (waiting, delayed or active): jobs, and the listings they are about. */
  requeued: { jobs: number; listings: number };
}

/**
 * One read of what a run's failures are now. Why apart from listFailedJobs: after a retry the run's
 * record still counts the re-queued jobs as failed until they finish again, and a page that showed
 * that count beside the (now empty) failed list contradicted itself; the caller takes `requeued`
 * off the record's counts. A job that failed for good has a finish time and a reason; a retry
 * removes both.
 */
export async function runFailures(writes: Queue, store: Store, runId: string): Promise<RunFailures> {
  const jobs = await queueJobsOfFailed(writes, store, runId);
  const result: RunFailures = { failed: [], requeued: { jobs: 0, listings: 0 } };
  for (const job of jobs) {
    if (job.failedReason !== undefined && job.finishedOn !== undefined) result.failed.push(rowOf(job));
    else if (job.finishedOn === undefined) {
      result.requeued.jobs += 1;
      result.requeued.listings += listingsOf(job);
    }
  }
  return result;
}

/**
 * Re-queues failed jobs with a fresh attempt budget. attemptsStarted is kept on purpose: a
 * create that failed may have reached the service, and the re-run must look its key up first.
 * Returns the ids re-queued and the ids that were not failed jobs.
 */
export async function retryJobs(
  writes: Queue,
  store: Store,
  which: { runId?: string; all?: boolean; jobIds?: readonly string[] },
): Promise<{ retried: string[]; skipped: string[] }> {
  let jobs: Job[];
  const skipped: string[] = [];
  if (which.jobIds && which.jobIds.length > 0) {
    jobs = [];
    for (const id of which.jobIds) {
      const job = await writes.getJob(id);
      if (job && (await job.isFailed())) jobs.push(job);
      else skipped.push(id);
    }
  } else {
    jobs = await failedJobs(writes, store, which.all ? undefined : which.runId);
  }
  const retried: string[] = [];
  for (const job of jobs) {
    await job.retry('failed', { resetAttemptsMade: true });
    retried.push(job.id ?? '');
  }
  return { retried, skipped };
}

export interface KeyJobRow {
  jobId: string;
  runId: string;
  chatbot: string;
  name: string;
  state: string;
  attempts: number;
  failedReason?: string;
  at: number;
}

/**
 * A job's state as a user reads it. Why 'prioritized' reads 'waiting': every write job has a
 * priority (its turn, fair-turns.ts), so BullMQ's word for its waiting set is not news to anyone.
 */
function waitingAsSuch(state: string): string {
  return state === 'prioritized' ? 'waiting' : state;
}

/**
 * The state of a job no longer in the queue, from the outcome its run recorded: 'failed' or
 * 'cancelled' as recorded, 'completed' for any other outcome, 'removed' when the run recorded
 * none. Why: completed jobs leave the queue as they complete (LISTING_SYNC_KEEP_COMPLETED 0), so
 * the run's record is where a finished job's end is.
 */
async function stateOfRemoved(store: Store, touch: { chatbot: string; runId: string; jobId: string }): Promise<string> {
  const recorded = await store.redis.hget(store.keys.runOutcomes(touch.chatbot, touch.runId), touch.jobId);
  const outcome = recorded?.split('\t')[0] ?? '';
  if (outcome === '') return 'removed';
  return outcome === 'failed' || outcome === 'cancelled' ? outcome : 'completed';
}

/**
 * Every job and run that touched a listing key, newest first. A job no longer in the queue shows
 * the state its run's recorded outcome tells ('removed' when there is none).
 */
export async function findKeyJobs(writes: Queue, store: Store, key: string, chatbot?: string): Promise<KeyJobRow[]> {
  // Why once per job: a job is touched again when it is retried or its carrier splits, and a
  // list of the same job twice reads as two jobs. Touches come newest first; the newest is kept.
  const seen = new Set<string>();
  const touches = (await store.keyIndex.touches(key, chatbot)).filter((touch) => {
    const id = `${touch.runId}\t${listedJobOf(touch.jobId).id}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return await Promise.all(
    touches.map(async (touch) => {
      // A carried listing (carried-ids.ts) shows its own job once it has one, its recorded outcome
      // once it has one, and until then the state of the carrier it waits in.
      const { id, carrier } = listedJobOf(touch.jobId);
      const own = await writes.getJob(id);
      const recorded = own === undefined && carrier !== undefined ? await stateOfRemoved(store, { ...touch, jobId: id }) : undefined;
      const job = own ?? (recorded === 'removed' && carrier !== undefined ? await writes.getJob(carrier) : undefined);
      const row: KeyJobRow = {
        jobId: id,
        runId: touch.runId,
        chatbot: touch.chatbot,
        name: own === undefined ? listingJobNameOf(id) : shownJob(own).name,
        at: touch.at,
        state: job ? waitingAsSuch(await job.getState()) : (recorded ?? (await stateOfRemoved(store, { ...touch, jobId: id }))),
        attempts: job?.attemptsMade ?? 0,
      };
      if (job?.failedReason) row.failedReason = job.failedReason;
      return row;
    }),
  );
}
