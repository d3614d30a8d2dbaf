/**
 * Nightly syncs as BullMQ job schedulers on the sync-runs queue. A scheduler lives in Redis, so it
 * survives restarts, and BullMQ produces each occurrence once however many workers run.
 */
import type { Queue } from 'bullmq';
import { SYNC_RUN, syncRunDataSchema } from '../../jobs/sync-run.js';
import type { ScheduledSyncRequest } from '../../jobs/support/job-context.js';
import { unsealData } from './job-seal.js';

export interface Schedule {
  name: string;
  cron: string;
  tz?: string;
  request: ScheduledSyncRequest;
  /** Epoch ms of the next occurrence, when known. */
  next?: number;
}

/** Adds or replaces the schedule `name`. */
export async function addSchedule(syncRuns: Queue, schedule: Omit<Schedule, 'next'>): Promise<void> {
  const request = syncRunDataSchema.parse(schedule.request);
  await syncRuns.upsertJobScheduler(
    schedule.name,
    { pattern: schedule.cron, ...(schedule.tz ? { tz: schedule.tz } : {}) },
    // Why one attempt: a failed sync is logged at error level and runs again at the next
    // occurrence; retrying a whole sync (feed read, remote snapshot) minutes later helps little.
    { name: SYNC_RUN, data: request, opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 } },
  );
}

export async function listSchedules(syncRuns: Queue): Promise<Schedule[]> {
  const schedulers = await syncRuns.getJobSchedulers(0, -1, true);
  const schedules: Schedule[] = [];
  for (const scheduler of schedulers) {
    // Without its seal: the request is what was scheduled (the seal is the queue's, job-seal.ts).
    const parsed = syncRunDataSchema.safeParse(unsealData(scheduler.template?.data).payload);
    if (!parsed.success) continue;
    const schedule: Schedule = { name: scheduler.key, cron: scheduler.pattern ?? '', request: parsed.data };
    if (scheduler.tz) schedule.tz = scheduler.tz;
    if (typeof scheduler.next === 'number') schedule.next = scheduler.next;
    schedules.push(schedule);
  }
  return schedules;
}

/** Removes a schedule; false when there was none of that name. */
export async function removeSchedule(syncRuns: Queue, name: string): Promise<boolean> {
  return await syncRuns.removeJobScheduler(name);
}
