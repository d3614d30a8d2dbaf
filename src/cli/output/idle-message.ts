/**
 * The line a waiting command prints when its run shows no progress for a while (no job started
 * or finished): the likeliest cause, from what the queue is doing, and what to do about it.
 */
import { humanDuration } from '../../domain/human-duration.js';
import type { QueueActivity } from '../../queue/queue-activity.js';
import { plural } from '../../shared/counts.js';

export interface IdleFacts {
  runId: string;
  idleMs: number;
  /** Whether this process runs workers (`--work`); without, the usual cause is that none runs. */
  workersHere: boolean;
  /** The queue now; undefined when it could not be read (then the general line). */
  queue?: QueueActivity;
  /** How long a stopped process's jobs may wait before they run again (its key claims' send window). */
  heldForMs?: number;
  /** The run is not sealed yet: its enqueuer (this process's, another, or one that stopped) has not added every job. */
  enqueuing?: boolean;
}

export function idleMessage(facts: IdleFacts): string {
  const { runId, queue } = facts;
  // In words ("11 s", "3 min 20 s"): a run stopped long ago reads as such, not as a count of seconds.
  const idle = humanDuration(facts.idleMs);
  if (!facts.workersHere)
    return (
      `run ${runId}: no worker is working on it (nothing for ${idle}): start \`listing-sync worker\`, ` +
      `or finish it here with \`listing-sync runs resume ${runId} --work\``
    );
  if (queue?.paused === true)
    return `run ${runId}: no job started or finished for ${idle}: the writes queue is paused; resume it with \`listing-sync jobs resume\``;
  if (queue !== undefined && queue.active > 0 && queue.ready === 0) {
    // Why say "stopped": after a crash its jobs look exactly like this, and waiting is the fix.
    const upTo = facts.heldForMs === undefined ? '' : ` (up to ~${Math.ceil(facts.heldForMs / 1000)} s after it stopped)`;
    return (
      `run ${runId}: no job started or finished for ${idle}: ${plural(queue.active, 'job')} ` +
      `${queue.active === 1 ? 'is' : 'are'} held by another worker process, ` +
      `or by one that stopped; those of a stopped process run here once their locks and key claims expire${upTo}, ` +
      'so that nothing it may have sent is sent twice'
    );
  }
  if (facts.enqueuing === true && (queue === undefined || queue.ready === 0))
    // Why name the stopped enqueuer: after a crash mid-enqueue this is what the run looks like, and waiting is the fix.
    return (
      `run ${runId}: no job started or finished for ${idle}: the run is not all in the queue yet, ` +
      "and the process adding its jobs may have stopped; once that process's lease is stale (about 30 s after it stopped), " +
      'the jobs it never added are recorded as failed and the rest finishes here (the next sync plans them again)'
    );
  return `run ${runId}: no job started or finished for ${idle} (is Redis answering? is the queue paused? see \`listing-sync jobs resume\`)`;
}
