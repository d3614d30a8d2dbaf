/**
 * What a processor receives: a plain context built by src/queue from the BullMQ job (jobs never
 * import bullmq), and the dependencies the composition root injects.
 */
import type { z } from 'zod';
import type { ApiClient } from '../../src/api/client-contract.js';
import type { RetryTable } from '../../src/api/retry-policy.js';
import type { Logger } from '../../src/runtime/logger.js';
import type { Store } from '../../src/store/store.js';
import type { JobOutcome } from '../../src/store/run-types.js';
import type { Scrubber } from '../../src/shared/secret-scrub.js';
import type { ScheduledRun } from '../../src/domain/scheduled-run.js';
import type { Plan } from '../../src/domain/plan.js';
import type { JobSpec, PlanJobOptions } from './job-spec.js';

export interface JobContext<T> {
  id: string;
  name: string;
  data: T;
  /** Attempts that ended in an error before this one. */
  attemptsMade: number;
  /**
   * Times the job was moved to active, this time included. More than 1 means an earlier start
   * (a failed attempt, a stall after a worker died, a rate-limited re-queue) may have reached
   * the service: creates look their key up first.
   */
  attemptsStarted: number;
  /**
   * Names this start of the job (BullMQ's lock token): a start whose lock was lost may still be
   * running while the job starts again, and the key claim tells the two apart.
   */
  attemptToken: string;
  runId: string;
  /** Appends a line to the job's log (shown in the dashboard). */
  log(line: string): void;
}

/** One listing a write-listings job carries: its own job's id, name and data. */
export interface CarriedListing {
  id: string;
  name: 'create-listing' | 'update-listing';
  data: { key: string } & Record<string, unknown>;
}

/** What the sync-run job calls: the whole sync use case, injected to avoid a cycle. */
export type RunSyncFn = (request: ScheduledSyncRequest & { trigger: 'schedule' }) => Promise<ScheduledRun>;

/**
 * A scheduled sync's request: the sync use case's own request object (src/sync SyncRequest),
 * opaque here apart from its chatbot; the injected runSync validates the rest.
 */
export type ScheduledSyncRequest = { chatbot: string } & Record<string, unknown>;

export interface JobDeps {
  api: ApiClient;
  /** The configured retry table (config.api.retryTable): which failed reads a job repeats in place (lookups). */
  retryTable: RetryTable;
  store: Store;
  logger: Logger;
  now(): number;
  /** Fields whose change alone never triggers an update (defaults to the domain's list). */
  volatileFields?: readonly string[];
  /**
   * How long after its last probe an earlier start of a job may still be sending a create
   * (send-window.ts sendWindowMs of the client's timeouts; default: the default timeouts).
   */
  sendWindowMs?: number;
  runSync?: RunSyncFn;
  /**
   * Scrubs the configured secrets out of a failure before anything stores it (the failed index, the
   * run record, BullMQ's failedReason, stacktrace and events): src/shared/secret-scrub.ts.
   */
  scrubber?: Scrubber;
}

/** What a processor returns (kept as the job's return value). */
export interface JobResult {
  /** A listing/edit job's outcome, 'synced' for a sync-run job, 'carried' for a write-listings job (its listings have their own). */
  outcome: JobOutcome | 'synced' | 'carried';
  remoteId?: string;
  /** Why the outcome is not the plain one (e.g. "found by lookup", "newer run run-…"). */
  note?: string;
}

/**
 * What a carrier (write-listings.ts) returns when it stops: the listings it leaves to the queue,
 * each to become a batch of its own (src/queue/carrier-split.ts adds them; jobs never import
 * bullmq). Never kept as the job's return value: the queue returns `{ outcome, note }` instead
 * (the cause is an error, which may hold a secret and does not serialise).
 */
export interface CarrierSplit {
  outcome: 'carried';
  /** What the carrier did (kept as its return value when the split is made). */
  note: string;
  splitOff: {
    /** The listings left, the one that failed (if any) first. */
    items: readonly CarriedListing[];
    /**
     * What the first of `items` threw; unset for a carrier started again. The queue decides from
     * it whether the carrier splits or is put back whole, and how long the first listing waits.
     */
    cause?: unknown;
  };
}

/** What a kind's processor returns to src/queue: a result, or a carrier's split. */
export type ProcessResult = JobResult | CarrierSplit;

/** A failure that will not be retried again: its Code and Message, as shown on the job. */
export interface FinalFailure {
  code: string;
  message: string;
}

/** The queues job kinds run in (src/queue/queues.ts QUEUE_NAMES, which says why there are three). */
export type JobQueueName = 'listing-writes' | 'sync-runs' | 'alerts';

/**
 * One job kind, whole: its name, the queue it runs in, payload schema, processor and final
 * failure. `D`: what its processor is given (the alerts queue's kinds get their own); `R`: what it
 * returns (a result kept as the job's return value, or a carrier's split). src/queue runs a job
 * only through its kind (registry.ts).
 */
export interface JobKind<T, D = JobDeps, R = ProcessResult> {
  name: string;
  /** The queue its jobs are added to; a job of this name found in another queue is refused (UNKNOWN_JOB). */
  queue: JobQueueName;
  schema: z.ZodType<T>;
  process(ctx: JobContext<T>, deps: D): Promise<R>;
  /** Records a final failure (failed-key memory + run outcome, or a log line). */
  onFinalFailure(ctx: JobContext<T>, deps: D, failure: FinalFailure): Promise<void>;
  /**
   * Whether `thrown` is final at once, whatever attempts are left (a kind of a queue without the
   * writes queue's error mapping says so itself); unset: src/queue/error-mapping.ts decides.
   */
  finalOn?(thrown: unknown): boolean;
  /**
   * The jobs of this kind a sync's plan becomes (its creates and updates, its deletes), in order,
   * one at a time (a large plan is never held twice); unset: a plan has none.
   */
  jobsFor?(plan: Plan, runId: string, options: PlanJobOptions): Iterable<JobSpec>;
  /** How many of its run's jobs `jobsFor` stands for (a carrier counts what it carries), without building them. */
  jobCountFor?(plan: Plan, options: PlanJobOptions): number;
  /** The jobs of a bulk edit (one request body per chatbot); unset: the kind takes none. */
  jobsForBodies?(runId: string, bodies: readonly { serialNumber: string }[]): JobSpec[];
  /**
   * Whether job `jobId` of this kind carries several of its run's jobs (a write-listings carrier):
   * its run counts those, not it, and only its processor may return a split (CarrierSplit).
   */
  carries?(jobId: string): boolean;
}

/**
 * One listing write as its batch runs it (create-listing.ts, update-listing.ts): the payload of
 * the listing's own job and how it is written. Not a kind of its own: it runs inside a
 * write-listings batch (write-listings.ts), whose final failure records it.
 */
export interface ListingWrite<T> {
  name: string;
  schema: z.ZodType<T>;
  process(ctx: JobContext<T>, deps: JobDeps): Promise<JobResult>;
}
