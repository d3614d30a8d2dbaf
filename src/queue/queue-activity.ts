/**
 * What the writes queue is doing right now, queue-wide and cheap (two reads): whether it is
 * paused, how many jobs workers hold and how many wait. A waiting command reads it only to say
 * why its run shows no progress (cli/idle-message.ts), never to decide anything.
 */
import type { Queue } from 'bullmq';

export interface QueueActivity {
  paused: boolean;
  /** Jobs a worker holds (of any run, in any process, a stopped one's until its locks expire). */
  active: number;
  /** Jobs ready for a worker now (waiting or prioritized), not counting those delayed for a backoff. */
  ready: number;
}

export async function queueActivity(queue: Queue): Promise<QueueActivity> {
  const [paused, counts] = await Promise.all([queue.isPaused(), queue.getJobCounts('active', 'wait', 'waiting', 'prioritized')]);
  return {
    paused,
    active: counts.active ?? 0,
    ready: (counts.wait ?? counts.waiting ?? 0) + (counts.prioritized ?? 0),
  };
}
