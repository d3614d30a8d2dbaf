/**
 * The Redis watch's question when BullMQ calls a job in flight gone (job-error-lines.ts
 * OutcomeLookup): was it finished after all, with only its queue record removed? That is a job
 * whose lock was lost (Redis away longer than the lock lasts) and which another start then
 * finished and removed, or one removed by hand after it finished: its outcome is recorded and
 * nothing of it is lost. A job whose whole queue went (its keys deleted, or lost with Redis's
 * data) is gone even if its own outcome made it: the jobs that waited beside it did not.
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../store/redis-client.js';
import type { Store } from '../store/store.js';
import type { OutcomeLookup } from './job-error-lines.js';
import { WRITE_LISTINGS } from '../../jobs/support/listing-job-data.js';
import { runIdOfJobId } from '../domain/job-id.js';
import { outcomesAmong } from '../store/outcomes-among.js';
import { listingJobNameOf } from '../../jobs/plan-jobs.js';

/**
 * The outcome recorded for `jobId` while `queue` is intact (its meta hash, written by every Queue
 * at start, still there: read over `redis`, the queue's connection); undefined otherwise.
 */
export function finishedElsewhere(
  queue: Pick<Queue, 'toKey'>,
  redis: RedisClient,
  store: Pick<Store, 'runs' | 'redis' | 'keys'>,
): OutcomeLookup {
  const { runs } = store;
  return async (jobId) => {
    const [outcome, intact] = await Promise.all([
      listingJobNameOf(jobId) === WRITE_LISTINGS ? carriedOutcome(queue, store, jobId) : runs.recordedOutcome(jobId),
      redis.exists(queue.toKey('meta')),
    ]);
    return intact === 1 ? outcome : undefined;
  };
}

/**
 * 'carried' when every listing carrier `carrierId` carried has its outcome recorded or a job of
 * its own (it was split off); undefined otherwise. Why it reads the run's whole job list: only
 * that list names a carrier's listings once the carrier's record is gone; this runs only after
 * Redis was away longer than a lock.
 */
async function carriedOutcome(
  queue: Pick<Queue, 'toKey'>,
  store: Pick<Store, 'runs' | 'redis' | 'keys'>,
  carrierId: string,
): Promise<string | undefined> {
  const { runs, redis } = store;
  const runId = runIdOfJobId(carrierId);
  const chatbot = runId === undefined ? undefined : await runs.chatbotOfRun(runId);
  if (runId === undefined || chatbot === undefined) return undefined;
  const carried = (await runs.listedJobs(runId)).filter((job) => job.carrier === carrierId).map((job) => job.id);
  if (carried.length === 0) return undefined;
  const recorded = await outcomesAmong(store, runId, chatbot, carried);
  const unrecorded = carried.filter((id) => !recorded.has(id));
  const ownJobs = unrecorded.length === 0 ? 0 : await redis.exists(...unrecorded.map((id) => queue.toKey(id)));
  return ownJobs === unrecorded.length ? 'carried' : undefined;
}
