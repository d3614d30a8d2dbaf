/**
 * The queues. Decision: ONE queue, 'listing-writes', carries every request that writes to the
 * service (create/update/delete listings, edit chatbot, edit knowledge), told apart by job name;
 * 'sync-runs' carries whole scheduled syncs. Why one write queue: BullMQ's global concurrency
 * and rate limit are per queue, and the promise is "the service never sees more requests in
 * flight than configured" — with edits in a second queue two limits would add up. Syncs are
 * apart because a sync (reading a feed and the remote) must not occupy a write slot, and its
 * own paging is bounded by the snapshot's fan-out.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export const QUEUE_NAMES = { writes: 'listing-writes', syncRuns: 'sync-runs' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface Queues {
  writes: Queue;
  syncRuns: Queue;
  close(): Promise<void>;
}

/** Opens both queues over `connection` (the caller keeps owning and closing it). */
export function openQueues(connection: Redis, prefix: string): Queues {
  const writes = new Queue(QUEUE_NAMES.writes, { connection, prefix });
  const syncRuns = new Queue(QUEUE_NAMES.syncRuns, { connection, prefix });
  return {
    writes,
    syncRuns,
    async close() {
      await Promise.all([writes.close(), syncRuns.close()]);
    },
  };
}
