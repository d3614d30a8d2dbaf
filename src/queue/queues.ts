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
import type { Redis } from 'ioredis';

export const QUEUE_NAMES = { writes: 'listing-writes', syncRuns: 'sync-runs', alerts: 'alerts' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface Queues {
  writes: Queue;
  syncRuns: Queue;
  alerts: Queue;
  close(): Promise<void>;
}

/** Opens the queues over `connection` (the caller keeps owning and closing it). */
export function openQueues(connection: Redis, prefix: string): Queues {
  const writes = new Queue(QUEUE_NAMES.writes, { connection, prefix });
  const syncRuns = new Queue(QUEUE_NAMES.syncRuns, { connection, prefix });
  const alerts = new Queue(QUEUE_NAMES.alerts, { connection, prefix });
  return {
    writes,
    syncRuns,
    alerts,
    async close() {
      await Promise.all([writes.close(), syncRuns.close(), alerts.close()]);
    },
  };
}
