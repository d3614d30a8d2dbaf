/**
 * The queues. Decision: ONE queue, 'listing-writes', carries every request that writes to the
 * service (create/update/delete listings, edit chatbot, edit knowledge), told apart by job name;
 * 'sync-runs' carries whole scheduled syncs. Why one write queue: BullMQ's global concurrency
 * and rate limit are per queue, and the promise is "the service never sees more requests in
 * flight than configured" — with edits in a second queue two limits would add up. Syncs are
 * apart because a sync (reading a feed and the remote) must not occupy a write slot, and its
 * own paging is bounded by the snapshot's fan-out. 'alerts' carries webhook deliveries: a slow or
 * failing webhook must never hold a write slot, and its retries follow their own backoff.
 */
import { Queue } from 'bullmq';
import type { JobQueueName } from '../../jobs/support/job-context.js';
import { isCluster, type RedisClient } from '../store/redis-client.js';
import type { JobSeal, NoSeal } from './job-seal.js';
import { SealedQueue } from './sealed-queue.js';

export const QUEUE_NAMES = { writes: 'listing-writes', syncRuns: 'sync-runs', alerts: 'alerts' } as const satisfies Record<
  string,
  JobQueueName
>;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/**
 * The name BullMQ gets for `queue` over `connection`. On a Redis Cluster each queue is its own
 * hash tag (`{listing-writes}`): BullMQ's Lua scripts touch many keys of one queue, which must
 * share a slot, and separate tags let the queues live on different masters. On one Redis
 * the plain name, so the queues of existing installations stay where they are.
 */
export function queueKeyName(queue: QueueName, connection: RedisClient): string {
  return isCluster(connection) ? `{${queue}}` : queue;
}

/** A queue's name for people: without a cluster's hash tag (`{listing-writes}` → `listing-writes`). */
export function queueDisplayName(keyName: string): string {
  return keyName.replace(/^\{(.*)\}$/, '$1');
}

export interface Queues {
  writes: Queue;
  syncRuns: Queue;
  alerts: Queue;
  close(): Promise<void>;
}

/**
 * How a process's queues add jobs: sealed with its JobSeal (job-seal.ts; NoSeal: adding fails,
 * naming the setting to set), or 'read-only' for a
 * process that must never make a job workers run (the dashboard: bull-board's add goes through
 * its queues, and what they add carries no seal).
 */
export type QueueSealing = JobSeal | NoSeal | 'read-only';

/** The queue `queue` over `connection`: sealing what it adds, or plain (see QueueSealing). */
export function openQueue(queue: QueueName, connection: RedisClient, prefix: string, sealing: QueueSealing): Queue {
  const keyName = queueKeyName(queue, connection);
  return sealing === 'read-only'
    ? new Queue(keyName, { connection, prefix })
    : new SealedQueue(queue, keyName, { connection, prefix }, sealing);
}

/** Opens the queues over `connection` (the caller keeps owning and closing it). */
export function openQueues(connection: RedisClient, prefix: string, sealing: QueueSealing): Queues {
  const writes = openQueue(QUEUE_NAMES.writes, connection, prefix, sealing);
  const syncRuns = openQueue(QUEUE_NAMES.syncRuns, connection, prefix, sealing);
  const alerts = openQueue(QUEUE_NAMES.alerts, connection, prefix, sealing);
  return {
    writes,
    syncRuns,
    alerts,
    async close() {
      await Promise.all([writes.close(), syncRuns.close(), alerts.close()]);
    },
  };
}
