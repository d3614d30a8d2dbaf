/**
 * The jobs this worker's processor is running right now, to tell a lost lock from a renewal
 * that merely came late.
 *
 * Why: BullMQ renews the locks of jobs active for longer than a few seconds on a timer. A job
 * that finishes (or is moved back to wait or delayed) between the timer picking it and the
 * renewal reaching Redis has already released its lock, and BullMQ then emits "could not renew
 * lock for job X" although nothing was lost. It shows at the end of a service outage, when every
 * held job goes on at once: a job put back to wait keeps its turn, so this worker often takes
 * the same id again, under a new lock, before the failed renewal of its old lock is reported.
 * BullMQ's timer renews only a run older than half its renewal interval (`renewedAfterMs`), so a
 * failure reported for an id whose every current run is younger than that was about an earlier
 * run. A lock really lost while a job runs still says so: either its renewal fails while an old
 * enough run of it is in the processor, or its finish fails with "Missing lock".
 */
import type { Job } from 'bullmq';

const RENEWAL_FAILED = /^could not renew lock for job (.+)$/;

export interface JobsInFlight {
  /** `processor`, keeping the id of each job and when it started, from its start to its end. */
  track<R>(
    processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<R>,
  ): (job: Job, token?: string, signal?: AbortSignal) => Promise<R>;
  /** True when `err` is a failed lock renewal that no run in the processor now can have caused. */
  isLateRenewal(err: Error): boolean;
}

export interface JobsInFlightOptions {
  /** The youngest run BullMQ's lock timer renews: half its lockRenewTime (which is lockDuration ÷ 2 by default). */
  renewedAfterMs: number;
  clock?: () => number;
}

export function jobsInFlight({ renewedAfterMs, clock = Date.now }: JobsInFlightOptions): JobsInFlight {
  /** Start times of the runs of each id in the processor (BullMQ may hand a stalled id to this worker again before the first run ended). */
  const running = new Map<string, number[]>();
  return {
    track(processor) {
      return async (job, token, signal) => {
        const id = job.id ?? '';
        const startedAt = clock();
        const starts = running.get(id) ?? [];
        starts.push(startedAt);
        running.set(id, starts);
        try {
          return await processor(job, token, signal);
        } finally {
          starts.splice(starts.indexOf(startedAt), 1);
          if (starts.length === 0 && running.get(id) === starts) running.delete(id);
        }
      };
    },
    isLateRenewal(err) {
      const id = RENEWAL_FAILED.exec(err.message)?.[1];
      if (id === undefined) return false;
      const oldest = Math.min(...(running.get(id) ?? []));
      return oldest > clock() - renewedAfterMs;
    },
  };
}
