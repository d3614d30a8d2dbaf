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
import type { RunStore } from '../store/runs.js';
import type { OutcomeLookup } from './job-error-lines.js';

/**
 * The outcome recorded for `jobId` while `queue` is intact (its meta hash, written by every Queue
 * at start, still there: read over `redis`, the queue's connection); undefined otherwise.
 */
export function finishedElsewhere(queue: Pick<Queue, 'toKey'>, redis: RedisClient, runs: RunStore): OutcomeLookup {
  return async (jobId) => {
    const [outcome, intact] = await Promise.all([runs.recordedOutcome(jobId), redis.exists(queue.toKey('meta'))]);
    return intact === 1 ? outcome : undefined;
  };
}
