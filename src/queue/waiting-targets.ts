/**
 * Which services the jobs waiting in a queue are for (their seals' targets, job-seal.ts): what a
 * worker says at start when they are not its own, and what `doctor` and the dashboard's Health
 * page show. Reads a sample (the first SAMPLE waiting, prioritized and delayed jobs), never the
 * whole queue: a migration's 100k jobs must not make a start or a page slow.
 */
import { Queue } from 'bullmq';
import type { RedisClient } from '../store/redis-client.js';
import type { Logger } from '../runtime/logger.js';
import { elsewhereLine } from './job-gate.js';
import { describeTarget, sameTarget, unsealData, type JobTarget } from './job-seal.js';
import { QUEUE_NAMES, queueKeyName } from './queues.js';

/** Jobs read per state. */
const SAMPLE = 50;

/** A target seen among the waiting jobs, with how many of the sample were for it and a run of theirs. */
export interface WaitingTarget {
  target: JobTarget;
  jobs: number;
  run: string;
}

/** The targets of the waiting jobs sampled in `queue`; jobs without a seal are not counted. */
export async function waitingTargets(queue: Queue): Promise<WaitingTarget[]> {
  const jobs = await queue.getJobs(['prioritized', 'wait', 'delayed'], 0, SAMPLE - 1);
  const found: WaitingTarget[] = [];
  for (const job of jobs) {
    const { payload, seal } = unsealData(job.data);
    if (seal === undefined) continue;
    const known = found.find((entry) => sameTarget(entry.target, seal.target));
    if (known !== undefined) known.jobs += 1;
    else {
      const runId = typeof payload === 'object' && payload !== null ? (payload as { runId?: unknown }).runId : undefined;
      found.push({ target: seal.target, jobs: 1, run: typeof runId === 'string' ? runId : job.name });
    }
  }
  return found;
}

/**
 * The targets of the jobs waiting in the writes and sync-runs queues, read without writing
 * anything (`doctor` only reads: a queue opened with skipMetasUpdate writes no meta key).
 */
export async function readWaitingTargets(connection: RedisClient, prefix: string): Promise<WaitingTarget[]> {
  const found: WaitingTarget[] = [];
  for (const name of [QUEUE_NAMES.writes, QUEUE_NAMES.syncRuns]) {
    const queue = new Queue(queueKeyName(name, connection), { connection, prefix, skipMetasUpdate: true });
    queue.on('error', () => undefined);
    try {
      found.push(...(await waitingTargets(queue)));
    } finally {
      await queue.close();
    }
  }
  return found;
}

/** The waiting targets that are not `own`. */
export function foreignTargets(found: readonly WaitingTarget[], own: JobTarget): WaitingTarget[] {
  return found.filter((entry) => !sameTarget(entry.target, own));
}

/** One line per foreign target: for whom the waiting jobs are, beside `own`. */
export function foreignTargetLines(found: readonly WaitingTarget[], own: JobTarget): string[] {
  return foreignTargets(found, own).map(
    (entry) => `${entry.jobs} waiting job(s) (run ${entry.run}, …) are for ${describeTarget(entry.target)}, not ${describeTarget(own)}`,
  );
}

/**
 * Says at start which service the waiting jobs of `queue` are for when they are not `own`'s (one
 * line per run sampled; `told` then keeps the processor from saying it again). Never throws: a
 * start must not fail on a line for people.
 */
export async function tellWaitingTargets(queue: Queue, own: JobTarget, logger: Logger, told: Set<string>): Promise<void> {
  try {
    for (const entry of foreignTargets(await waitingTargets(queue), own)) {
      told.add(entry.run);
      logger.warn(
        { target: entry.target.url, credentials: entry.target.credentials },
        elsewhereLine(`run ${entry.run}`, entry.target, own),
      );
    }
  } catch {
    // Redis is away at start: the processor says it once per run when it meets such a job.
  }
}
