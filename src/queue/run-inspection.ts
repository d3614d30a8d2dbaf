/**
 * What became of a run's jobs, read from Redis: which have no final outcome yet, and of those,
 * which are gone from the queue (removed by hand, lost with Redis's last second, never added by
 * an enqueue that died), which failed without their outcome recorded, and which a worker holds
 * right now. The reconciler and the lease's takeover both decide on this.
 *
 * Why it reads BullMQ's job hashes directly (`{prefix}:{queue}:{jobId}`, `…:lock`): one pipelined
 * EXISTS/HMGET per job instead of a getJobState script each; this folder is the one place that
 * knows BullMQ's layout.
 */
import type { Queue } from 'bullmq';
import type { Store } from '../store/store.js';
import type { ListedJob } from '../store/carried-ids.js';
import { orphanJobs } from './orphan-jobs.js';

export interface RunInspection {
  /** Job ids listed under the run. */
  listed: number;
  /** Listed job ids without a final outcome. */
  unfinished: string[];
  /**
   * The queue jobs that hold the unfinished ones (their own, or the carrier of a listing that has
   * none yet), each with how many of them it holds.
   */
  queued: Map<string, number>;
  /** Unfinished and no longer in the queue: the record gone, or held by no list (orphan-jobs.ts). */
  missing: string[];
  /** Unfinished, in the queue's failed set: they failed for good but their outcome was never recorded. */
  failedUnrecorded: Array<{ jobId: string; reason: string }>;
  /** Unfinished jobs a worker holds the lock of right now. */
  active: number;
}

const CHUNK = 1000;

/** A queue job's fields as inspection reads them. */
interface QueueRecord {
  exists: boolean;
  finished: boolean;
  failedReason: string | undefined;
  locked: boolean;
}

/**
 * Reads the records of `jobIds` (pipelined): its own job's, and for a carried job also its
 * carrier's. Why the carrier is read first: a carrier gives a listing a job of its own before it
 * completes (jobs/write-listings.ts), so a carrier seen finished means the listing's own job, if
 * it has one, is already there to be read after it.
 */
async function readRecords(
  store: Store,
  writes: Queue,
  part: readonly ListedJob[],
): Promise<Array<{ own: QueueRecord; carrier?: QueueRecord }>> {
  const pipe = store.redis.pipeline();
  const jobKey = (jobId: string): string => writes.toKey(jobId);
  const read = (jobId: string): void => {
    pipe.hmget(jobKey(jobId), 'name', 'finishedOn', 'failedReason').exists(`${jobKey(jobId)}:lock`);
  };
  for (const job of part) {
    if (job.carrier !== undefined) read(job.carrier);
    read(job.id);
  }
  const replies = (await pipe.exec()) ?? [];
  let at = 0;
  const next = (): QueueRecord => {
    const fields = (replies[at]?.[1] ?? []) as Array<string | null>;
    const locked = replies[at + 1]?.[1] === 1;
    at += 2;
    return {
      exists: fields[0] !== null && fields[0] !== undefined,
      finished: Boolean(fields[1]),
      failedReason: fields[2] ?? undefined,
      locked,
    };
  };
  return part.map((job) => {
    const carrier = job.carrier === undefined ? undefined : next();
    return carrier === undefined ? { own: next() } : { carrier, own: next() };
  });
}

/** Inspects every job of `runId` (pipelined in chunks, so a 100k-job run costs ~100 round trips). */
export async function inspectRun(store: Store, writes: Queue, runId: string): Promise<RunInspection> {
  const [listed, outcomes] = await Promise.all([store.runs.listedJobs(runId), store.runs.jobOutcomes(runId)]);
  const seen = new Set<string>();
  const unfinishedJobs = listed.filter((job) => !outcomes.has(job.id) && !seen.has(job.id) && seen.add(job.id));
  const unfinished = unfinishedJobs.map((job) => job.id);
  const inspection: RunInspection = { listed: listed.length, unfinished, queued: new Map(), missing: [], failedUnrecorded: [], active: 0 };
  /** Unfinished jobs with a record that no worker holds (in a list of the queue, or orphans), by the queue job that holds them. */
  const waiting = new Map<string, string[]>();
  for (let i = 0; i < unfinishedJobs.length; i += CHUNK) {
    const part = unfinishedJobs.slice(i, i + CHUNK);
    (await readRecords(store, writes, part)).forEach(({ own, carrier }, j) => {
      const job = part[j] as ListedJob;
      // A carried listing is its carrier's until it has a job of its own.
      const [holder, record] = own.exists || carrier === undefined || job.carrier === undefined ? [job.id, own] : [job.carrier, carrier];
      inspection.queued.set(holder, (inspection.queued.get(holder) ?? 0) + 1);
      if (!record.exists || (holder !== job.id && record.finished && record.failedReason === undefined)) inspection.missing.push(job.id);
      else if (record.finished && record.failedReason) inspection.failedUnrecorded.push({ jobId: job.id, reason: record.failedReason });
      else if (!record.locked && !record.finished) waiting.set(holder, [...(waiting.get(holder) ?? []), job.id]);
      if (record.locked) inspection.active += 1;
    });
  }
  for (const orphan of await orphanJobs(store.redis, writes, [...waiting.keys()])) inspection.missing.push(...(waiting.get(orphan) ?? []));
  if (inspection.missing.length > 0) {
    // Why read the outcomes again: a job that finished after they were first read and was then
    // removed from the queue (removeOnComplete) looks missing or orphaned, though its outcome is recorded (a
    // job records it before BullMQ completes it). Read after the job records, the outcomes hold
    // every job that finished before its record went, so only the truly lost ones stay missing.
    const recorded = await store.runs.jobOutcomes(runId);
    inspection.missing = inspection.missing.filter((jobId) => !recorded.has(jobId));
  }
  return inspection;
}
