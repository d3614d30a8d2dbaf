/**
 * Whether any worker process takes jobs from the writes queue now, from Redis's own client list
 * (BullMQ names every worker connection after its queue: `Queue.getWorkersCount`). A retry or a
 * run in progress reads it only to say that its jobs wait for a worker nobody started.
 */
import type { Queue } from 'bullmq';

/** Worker connections on the queue now; undefined when Redis does not tell (CLIENT LIST refused or unsupported). */
export async function writeWorkersAlive(writes: Queue): Promise<number | undefined> {
  try {
    return await writes.getWorkersCount();
  } catch {
    return undefined;
  }
}

/** The BullMQ prefix the queue lives under (what `--prefix` / LISTING_SYNC_PREFIX set). */
export function queuePrefix(queue: Queue): string {
  return queue.opts.prefix ?? 'bull';
}
