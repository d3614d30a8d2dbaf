/**
 * A queue job as a kind plans it (its name, deterministic id, payload), before src/queue adds it.
 * Pure data: a dry run or a test can see exactly which jobs a plan or a bulk edit becomes. Every
 * job carries its run, chatbot and the exact payload it will send (never a secret: credentials
 * live only in the worker's API client).
 */

export interface JobSpec {
  name: string;
  id: string;
  /** The payload, as the kind's schema reads it. */
  data: { readonly [field: string]: unknown };
  /** Listing keys the job is about (for `jobs find KEY`). */
  touches: string[];
  /** Its turn in the writes queue (a BullMQ priority, set as the run is enqueued: fair-turns.ts); unset: plain FIFO. */
  priority?: number;
  /**
   * A carrier's listings (listing-batches.ts): the ids of the listing jobs it carries, which are the
   * run's jobs (its counts and outcomes are theirs); unset: the job is one of the run's jobs itself.
   */
  carries?: string[];
}

/** The ids of the run's jobs `spec` stands for: its own, or those it carries. */
export function runJobIdsOf(spec: JobSpec): readonly string[] {
  return spec.carries ?? [spec.id];
}

/** How a plan's jobs are cut: delete batches of `deleteBatchSize` keys, at most `listingsPerJob` listings a write job. */
export interface PlanJobOptions {
  deleteBatchSize: number;
  listingsPerJob?: number;
}
