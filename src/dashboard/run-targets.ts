/**
 * Which service a run's jobs are for (each job's seal records it: src/queue/job-seal.ts), and
 * whether that is another service than the one this dashboard is configured for. Why on the run
 * page: a worker configured for another service leaves the jobs waiting without a word on the
 * page (src/queue/job-gate.ts), and the run then sits "in progress" for as long as no worker of
 * its own service runs.
 */
import { describeTarget, sameTarget, unsealData, type JobTarget } from '../queue/job-seal.js';
import type { Queues } from '../queue/queues.js';
import { listedJobOf } from '../store/carried-ids.js';
import type { Store } from '../store/store.js';
import type { RunTargetView } from './types.js';

/** Jobs of the run read for the sample: the first ones it listed that are still in the queue. */
const SAMPLE = 20;

/** A target for people, and whether it is not `own` (false when the dashboard knows no service of its own). */
export function targetView(target: JobTarget, own: JobTarget | undefined): { target: string; elsewhere: boolean } {
  return { target: describeTarget(target), elsewhere: own !== undefined && !sameTarget(target, own) };
}

/**
 * The targets of a sample of the run's jobs still in the queue (waiting, running or failed),
 * with `failed`'s own targets first; empty when none of them is in the queue (completed jobs
 * leave it). Each with how many of the jobs read were for it.
 */
export async function runTargets(
  queues: Pick<Queues, 'writes'>,
  store: Store,
  run: { runId: string; chatbot: string },
  failed: ReadonlyArray<{ jobId: string; target?: JobTarget }>,
  own: JobTarget | undefined,
): Promise<RunTargetView[]> {
  const entries = await store.redis.lrange(store.keys.runJobs(run.chatbot, run.runId), 0, SAMPLE - 1);
  const ids = [...new Set(entries.map((entry) => listedJobOf(entry).carrier ?? listedJobOf(entry).id))];
  const byJob = new Map<string, JobTarget>();
  for (const job of failed) if (job.target !== undefined) byJob.set(job.jobId, job.target);
  for (const job of await Promise.all(ids.map((id) => queues.writes.getJob(id)))) {
    const target = job === undefined ? undefined : unsealData(job.data).seal?.target;
    if (job?.id !== undefined && target !== undefined) byJob.set(job.id, target);
  }
  const found: Array<{ target: JobTarget; jobs: number }> = [];
  for (const target of byJob.values()) {
    const known = found.find((entry) => sameTarget(entry.target, target));
    if (known === undefined) found.push({ target, jobs: 1 });
    else known.jobs += 1;
  }
  return found.map((entry) => ({ ...targetView(entry.target, own), jobs: entry.jobs }));
}
