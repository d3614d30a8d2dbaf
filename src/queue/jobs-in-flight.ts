/**
 * The jobs this worker's processor is running right now, to tell a lost lock from a renewal
 * that merely came late.
 *
 * Why: BullMQ renews the locks of jobs active for longer than a few seconds on a timer. A job
 * that finishes (or is moved back to wait or delayed) between the timer picking it and the
 * renewal reaching Redis has already released its lock, and BullMQ then emits "could not renew
 * lock for job X" although nothing was lost. It shows at the end of a service outage, when every
 * held job goes on at once. A lock really lost while a job runs still says so: either its
 * renewal fails while the processor still holds the job, or its finish fails with "Missing lock".
 */
import type { Job } from 'bullmq';

const RENEWAL_FAILED = /^could not renew lock for job (.+)$/;

export interface JobsInFlight {
  /** `processor`, keeping the id of each job from its start to its end. */
  track<R>(
    processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<R>,
  ): (job: Job, token?: string, signal?: AbortSignal) => Promise<R>;
  /** True when `err` is a failed lock renewal for a job the processor no longer runs. */
  isLateRenewal(err: Error): boolean;
}

export function jobsInFlight(): JobsInFlight {
  const running = new Map<string, number>();
  return {
    track(processor) {
      return async (job, token, signal) => {
        const id = job.id ?? '';
        // Why a count: BullMQ may hand the same id to this worker again (a stalled job) before the first ended.
        running.set(id, (running.get(id) ?? 0) + 1);
        try {
          return await processor(job, token, signal);
        } finally {
          const left = (running.get(id) ?? 1) - 1;
          if (left > 0) running.set(id, left);
          else running.delete(id);
        }
      };
    },
    isLateRenewal(err) {
      const id = RENEWAL_FAILED.exec(err.message)?.[1];
      return id !== undefined && !running.has(id);
    },
  };
}
