/**
 * What a worker checks before it does anything with a job (job-seal.ts): that listing-sync
 * enqueued it, for the service this worker is configured for.
 * - A job planned for another service (its seal's target is not this worker's) is left as it is:
 *   put back, delayed, without using an attempt, for a worker of that service. Why first, before
 *   the signature: a worker with other credentials may derive another key, and must not fail
 *   the jobs of an installation it cannot check.
 * - A job without a seal that holds (bull-board's add, a plain `Queue.add`, data edited in
 *   Redis) fails at once, without retries, and is never run; its run's records are not touched
 *   (its runId and chatbot are whatever its author wrote).
 */
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from '../runtime/logger.js';
import { describeTarget, sameTarget, schedulerJobId, sealHolds, unsealData, type JobSeal, type JobTarget } from './job-seal.js';

/** What a worker's gate needs: its seal, the queue it serves (as signed) and where it says what it leaves. */
export interface JobGate {
  seal: JobSeal;
  queue: string;
  logger: Logger;
  /** Runs whose jobs this process already said it leaves (shared by a process's gates: one line per run). */
  told: Set<string>;
}

/** The gates of one process's queues, by queue name: one `told` for all, so a run's jobs are said once. */
export function gatesOf(seal: JobSeal, logger: Logger): (queue: string) => JobGate {
  const told = new Set<string>();
  return (queue) => ({ seal, queue, logger, told });
}

/** The longest a job for another service waits before a worker looks at it again. */
const ELSEWHERE_MAX_MS = 30_000;

/**
 * How long a job for another service is put back for: doubling with each time a worker left it
 * (its starts that used no attempt), from 2 s to ELSEWHERE_MAX_MS, with jitter. Why growing: a
 * worker of the wrong service must not spin on a queue of jobs it will never run, while one of
 * the right service, started later, takes them within half a minute.
 */
function elsewhereDelayMs(job: Job): number {
  const left = Math.max(0, job.attemptsStarted - job.attemptsMade);
  const base = Math.min(ELSEWHERE_MAX_MS, 1000 * 2 ** Math.min(left, 5));
  return Math.round(base * (0.75 + Math.random() / 4));
}

/** The reason a job that listing-sync did not enqueue fails with (what bull-board and `jobs failed` show). */
export function notOursReason(job: Pick<Job, 'id' | 'name'>): string {
  return (
    `FORGED_JOB: job ${job.id ?? '?'} (${job.name}) was not enqueued by listing-sync (its signature does not match); it was not run. ` +
    'Enqueue work with listing-sync itself (`listing-sync sync`, `fleet run`, `runs resume`, `jobs retry`), ' +
    "never with bull-board's add or a plain Queue.add; " +
    'a job enqueued under another LISTING_SYNC_JOB_KEY or API_SECRET_KEY fails the same way'
  );
}

/** The id `job` was signed under: its own, or its scheduler's for an occurrence of a schedule. */
function signedIdOf(job: Job): string {
  return job.repeatJobKey !== undefined && job.repeatJobKey !== '' ? schedulerJobId(job.repeatJobKey) : (job.id ?? '');
}

/** The run (or schedule) a job belongs to, for the once-per-run line. */
function runOf(payload: unknown, job: Job): string {
  const runId = typeof payload === 'object' && payload !== null ? (payload as { runId?: unknown }).runId : undefined;
  return typeof runId === 'string' ? runId : (job.repeatJobKey ?? job.name);
}

/** The line a worker says when it leaves jobs for another service. */
export function elsewhereLine(run: string, theirs: JobTarget, own: JobTarget): string {
  return (
    `jobs of ${run} are for the service ${describeTarget(theirs)}; this worker is for ${describeTarget(own)}: ` +
    'they are left waiting for a worker of that service, their attempts unused'
  );
}

/**
 * The payload of `job` (its data without the seal) once the gate lets it through. A job for
 * another service is put back (DelayedError: BullMQ counts no attempt); one that listing-sync did
 * not enqueue throws UnrecoverableError (failed at once, no retry).
 */
export async function passGate(job: Job, token: string | undefined, gate: JobGate): Promise<unknown> {
  const { payload, seal } = unsealData(job.data);
  if (seal === undefined) throw new UnrecoverableError(notOursReason(job));
  if (!sameTarget(seal.target, gate.seal.target)) {
    const run = runOf(payload, job);
    if (!gate.told.has(run)) {
      // Why bounded: a worker left running for weeks must not grow a set of every run it saw.
      if (gate.told.size >= 1000) gate.told.clear();
      gate.told.add(run);
      gate.logger.warn(
        { job: job.id, target: seal.target.url, credentials: seal.target.credentials },
        elsewhereLine(`run ${run}`, seal.target, gate.seal.target),
      );
    }
    if (token === undefined) throw new DelayedError();
    await job.moveToDelayed(Date.now() + elsewhereDelayMs(job), token);
    throw new DelayedError();
  }
  if (!sealHolds(gate.seal.key, gate.queue, job.name, signedIdOf(job), payload, seal)) throw new UnrecoverableError(notOursReason(job));
  return payload;
}
