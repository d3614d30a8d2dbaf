/**
 * What the Redis watch says about BullMQ's per-job errors. A storm of the same fact (locks lost
 * at the end of an outage, jobs whose record vanished from Redis) is one warning per interval
 * that says what follows, not a raw error line per job and move.
 */
import type { Logger } from '../runtime/logger.js';

/**
 * BullMQ's word that a job in flight lost its lock: after an outage longer than the lock duration
 * the stalled check hands the job out again, and the first holder cannot finish it. (A failed renewal
 * alone is no evidence: RENEWAL_FAILED.)
 * Expected after an outage, and safe (a create run again looks its key up first), so it is one
 * line per interval, not one per job and command.
 */
const LOCK_LOST = /Missing lock for job|Lock mismatch for job/i;

/**
 * BullMQ's word that a timed lock renewal found the lock gone.
 *
 * Why it is not reported: it is no evidence of a loss. BullMQ's timer picks a job, and the job
 * finishes, is delayed or is put back to wait (releasing its lock) before the renewal reaches
 * Redis; at the end of a service outage, when every held job goes on at once, this happens by
 * the dozen (and the worker may already run the same id again under a new lock). A lock really
 * lost while its job runs always shows when that run finishes: BullMQ's finish then fails with
 * "Missing lock" or "Lock mismatch", and the watch warns about that (LOCK_LOST).
 */
const RENEWAL_FAILED = /^could not renew lock for job /;

/**
 * BullMQ's word that a job in flight is no longer where its worker left it: its record is gone
 * ("Missing key": removed by hand, or lost with Redis's data in a failover to a replica that had
 * not received it), or the record is there but the queue's active list no longer holds it ("is
 * not in the active state": the queue's lists were deleted while its lock and record survived, or
 * came back on a half-synced replica). Each such job fails every move it tries (finish, retry,
 * delay), which would be a raw error line per job and move. The reconciler records those jobs
 * as failed and ends their run (docs/guards-and-guarantees.md, "Every run ends"); one line per interval says what
 * happened and what follows. A job whose lock was lost, and which another start then finished and
 * removed, reads the same to its first start: its recorded outcome tells it apart (OutcomeLookup).
 */
const JOB_GONE = /Missing key for job|is not in the active state/i;

/** The job id in BullMQ's JOB_GONE messages ("Missing key for job ID. command", "Job ID is not in the active state. command"). */
const GONE_JOB_ID = /^(?:Missing key for job (\S+)|Job (\S+) is not in the \w+ state)\. \w+$/;

/**
 * The outcome recorded for a job BullMQ calls gone, when it finished after all and only its
 * queue record is missing (finished-elsewhere.ts); undefined when it is really gone. Why the watch
 * asks: a job whose lock was lost, and which another start then finished and removed, reads to
 * its first start as "Missing key", the same words as a job lost with its queue.
 */
export type OutcomeLookup = (jobId: string) => Promise<string | undefined>;

/** A per-job error BullMQ reports: a failed lock renewal, a lock lost, or a job gone. */
export type JobErrorKind = 'renewal failed' | 'lock lost' | 'job gone';

/** Which per-job error `message` is; undefined for any other error. */
export function jobErrorKind(message: string): JobErrorKind | undefined {
  if (RENEWAL_FAILED.test(message)) return 'renewal failed';
  if (LOCK_LOST.test(message)) return 'lock lost';
  if (JOB_GONE.test(message)) return 'job gone';
  return undefined;
}

export interface JobErrorLines {
  /** Logs what an error of `kind` means, at most once per interval for each meaning. */
  say(kind: JobErrorKind, message: string): void;
  /** From now on, a job called gone is first looked up with `lookup` (see OutcomeLookup). */
  knowOutcomes(lookup: OutcomeLookup): void;
}

/** The lines, through `logger`; `due(kind)` says whether a line of that kind is due, and marks it said. */
export function jobErrorLines(logger: Logger, due: (kind: string) => boolean): JobErrorLines {
  let outcomeOf: OutcomeLookup | undefined;

  function lockLost(message: string): void {
    if (!due('lock lost')) return;
    logger.warn(
      { err: message },
      'jobs in flight lost their lock (Redis was away longer than the lock lasts): they run again, and a ' +
        'create run again looks its key up first',
    );
  }

  function gone(message: string): void {
    if (!due('job gone')) return;
    logger.warn(
      { err: message },
      'jobs in flight are gone from the queue (removed by hand, or lost with Redis data): their outcome ' +
        'cannot be recorded; the reconciler records them as failed and ends their run within seconds, and ' +
        'the next sync plans them again',
    );
  }

  /** A job whose queue record was removed after it finished (see OutcomeLookup). */
  function finishedElsewhere(message: string, outcome: string): void {
    if (!due('finished elsewhere')) return;
    logger.warn(
      { err: message, outcome },
      `jobs in flight were finished already when their start ended (outcome recorded: ${outcome}): another ` +
        'start finished them after their lock was lost (Redis away longer than the lock lasts), or they were ' +
        'removed by hand; nothing of theirs is lost',
    );
  }

  /** Gone, or finished elsewhere when its outcome is recorded. */
  function goneOrFinished(message: string): void {
    const match = GONE_JOB_ID.exec(message);
    const jobId = match?.[1] ?? match?.[2];
    if (outcomeOf === undefined || jobId === undefined) return gone(message);
    outcomeOf(jobId)
      // Why gone when the look-up fails: Redis is away again; the reconciler's own check decides later.
      .catch(() => undefined)
      .then((outcome) => (outcome === undefined ? gone(message) : finishedElsewhere(message, outcome)))
      .catch(() => undefined);
  }

  return {
    say(kind, message) {
      if (kind === 'renewal failed')
        logger.debug({ err: message }, 'a lock renewal failed; a lock really lost shows when its job finishes');
      else if (kind === 'lock lost') lockLost(message);
      else goneOrFinished(message);
    },
    knowOutcomes(lookup) {
      outcomeOf = lookup;
    },
  };
}
