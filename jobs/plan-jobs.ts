/**
 * The queue jobs a sync's plan or a bulk edit becomes, from the kinds that make them (each kind's
 * `jobsFor` / `jobsForBodies`, in registry order). Pure: no Redis.
 */
import type { Plan } from '../src/domain/plan.js';
import { planKinds, jobKind } from './registry.js';
import type { JobSpec, PlanJobOptions } from './support/job-spec.js';
import { DELETE_LISTINGS } from './support/delete-batches.js';
import { CREATE_LISTING, UPDATE_LISTING, WRITE_LISTINGS } from './support/listing-job-data.js';

/** The queue jobs `plan` becomes: creates, then updates (carried several to a job in a large run), then delete batches. */
export function* queueJobSpecs(plan: Plan, runId: string, deleteBatchSize: number, listingsPerJob?: number): Generator<JobSpec> {
  const options: PlanJobOptions = { deleteBatchSize, ...(listingsPerJob === undefined ? {} : { listingsPerJob }) };
  for (const kind of planKinds()) yield* kind.jobsFor?.(plan, runId, options) ?? [];
}

/** The jobs of `plan` with every listing a job of its own (queueJobSpecs carrying none): what a dry run or a test reads. */
export function jobSpecs(plan: Plan, runId: string, deleteBatchSize: number): Generator<JobSpec> {
  return queueJobSpecs(plan, runId, deleteBatchSize, 1);
}

/** `jobSpecs` as a list. */
export function jobSpecsOf(plan: Plan, runId: string, deleteBatchSize: number): JobSpec[] {
  return [...jobSpecs(plan, runId, deleteBatchSize)];
}

/** How many jobs of its own the run of `plan` has (each listing write is one, carried or not), without building them. */
export function jobCountOf(plan: Plan, deleteBatchSize: number): number {
  let count = 0;
  for (const kind of planKinds()) count += kind.jobCountFor?.(plan, { deleteBatchSize }) ?? 0;
  return count;
}

/** The jobs of bulk-edit kind `name`, one per body; throws for a kind that takes no bodies. */
export function perChatbotJobSpecs<P extends { serialNumber: string }>(name: string, bodies: readonly P[], runId: string): JobSpec[] {
  const kind = jobKind('listing-writes', name);
  if (kind?.jobsForBodies === undefined) throw new TypeError(`job kind "${name}" takes no per-chatbot bodies (jobs/registry.ts)`);
  return kind.jobsForBodies(runId, bodies);
}

/** The job name of each kind a listing job's id starts with (see jobId's `kind`). */
const NAME_OF_KIND: Readonly<Record<string, string>> = {
  create: CREATE_LISTING,
  update: UPDATE_LISTING,
  delete: DELETE_LISTINGS,
  writes: WRITE_LISTINGS,
};

/** The name of the listing job `id` names ('' for any other id): what `jobs find` shows for a job no longer in the queue. */
export function listingJobNameOf(id: string): string {
  return NAME_OF_KIND[id.slice(0, Math.max(0, id.indexOf('.')))] ?? '';
}
