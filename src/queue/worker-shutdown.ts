/**
 * Stopping a process's BullMQ workers without ever hanging on Redis.
 *
 * Normally (Redis answering) jobs in flight finish and record their outcome first. While Redis is
 * away, or when it goes away during the stop, waiting is pointless: a job's outcome cannot be
 * recorded and QUIT cannot be answered, so every connection is dropped at once and the process
 * exits promptly. Nothing is lost: a job whose outcome was not recorded keeps its (expiring) lock,
 * is picked up again as stalled once Redis is back, and a create re-run after a stall looks its
 * key up first (see worker.ts), so it never duplicates.
 */
import type { Queue, Worker } from 'bullmq';
import type { RedisClient } from '../store/redis-client.js';
import { closeConnection } from './connection.js';
import type { QueueHold } from './queue-hold.js';
import type { RedisWatch } from './redis-watch.js';
import type { RequestPermits } from './request-permits.js';
import type { ServiceBreaker } from './service-breaker.js';

export interface WorkerParts {
  /** Filled as the workers are created (a stop during start-up closes the ones that exist). */
  workers: Worker[];
  queue: Queue;
  /** The connections the workers and queue were given (BullMQ never closes those). */
  connections: RedisClient[];
  watch: RedisWatch;
  /** This process's lease on the request permit pool, once started: given back after the workers closed. */
  permits?: RequestPermits;
  /** This process's service breaker, once started: its ticks stop after the workers closed. */
  breaker?: ServiceBreaker;
  /** The queue's hold as this process sees it: its waits end as the stop begins. */
  hold?: QueueHold;
}

const ignore = (): void => undefined;

/** Returns `stop(force)`: the first call decides, later calls wait for the same stop. */
export function workerStopper(parts: WorkerParts): (force: boolean) => Promise<void> {
  let stopping: Promise<void> | undefined;
  return (force) =>
    (stopping ??= (async () => {
      const { workers, queue, connections, watch } = parts;
      let dropped = false;
      const dropAll = (): void => {
        if (dropped) return;
        dropped = true;
        // Pending commands fail with "Connection is closed" at once instead of waiting for Redis.
        for (const worker of workers) void worker.disconnect().catch(ignore);
        void queue.disconnect().catch(ignore);
        for (const connection of connections) connection.disconnect();
      };
      // Why first: a request held back by a 429 or an outage would hold the stop for the whole
      // hold; released, it is refused unsent and its job put back (error-mapping.ts 'held').
      parts.hold?.close();
      const hardStop = force || !watch.isUp();
      if (hardStop) dropAll();
      const unsubscribe = watch.onDown(dropAll);
      try {
        await Promise.all(workers.map((worker) => worker.close(hardStop).catch(ignore)));
        // After the workers: no request of theirs is in flight any more, so the permits can go back.
        await parts.permits?.close();
        await parts.breaker?.close();
        await queue.close().catch(ignore);
      } finally {
        unsubscribe();
      }
      await Promise.all(connections.map(closeConnection));
    })());
}
