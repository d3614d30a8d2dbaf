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
import { orphanJobs } from './orphan-jobs.js';

export interface RunInspection {
  /** Job ids listed under the run. */
  listed: number;
  /** Listed job ids without a final outcome. */
  unfinished: string[];
  /** Unfinished and no longer in the queue: the record gone, or held by no list (orphan-jobs.ts). */
  missing: string[];
  /** Unfinished, in the queue's failed set: they failed for good but their outcome was never recorded. */
  failedUnrecorded: Array<{ jobId: string; reason: string }>;
  /** Unfinished jobs a worker holds the lock of right now. */
  active: number;
}

const CHUNK = 1000;

/** Inspects every job of `runId` (pipelined in chunks, so a 100k-job run costs ~100 round trips). */
export async function inspectRun(store: Store, writes: Queue, runId: string): Promise<RunInspection> {
  const [listed, outcomes] = await Promise.all([store.runs.jobsOfRun(runId), store.runs.jobOutcomes(runId)]);
  const unfinished = [...new Set(listed)].filter((jobId) => !outcomes.has(jobId));
  const inspection: RunInspection = { listed: listed.length, unfinished, missing: [], failedUnrecorded: [], active: 0 };
  const jobKey = (jobId: string): string => writes.toKey(jobId);
  /** Unfinished jobs with a record that no worker holds: in a list of the queue, or orphans. */
  const waiting: string[] = [];
  for (let i = 0; i < unfinished.length; i += CHUNK) {
    const part = unfinished.slice(i, i + CHUNK);
    const pipe = store.redis.pipeline();
    for (const jobId of part) pipe.hmget(jobKey(jobId), 'name', 'finishedOn', 'failedReason').exists(`${jobKey(jobId)}:lock`);
    const replies = (await pipe.exec()) ?? [];
    part.forEach((jobId, j) => {
      const fields = (replies[2 * j]?.[1] ?? []) as Array<string | null>;
      const locked = replies[2 * j + 1]?.[1] === 1;
      if (fields[0] === null || fields[0] === undefined) inspection.missing.push(jobId);
      else if (fields[1] && fields[2]) inspection.failedUnrecorded.push({ jobId, reason: fields[2] });
      else if (!locked && !fields[1]) waiting.push(jobId);
      if (locked) inspection.active += 1;
    });
  }
  inspection.missing.push(...(await orphanJobs(store.redis, writes, waiting)));
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
