/**
 * Every job kind by name: src/queue runs a job only through the kind registered here for its
 * name and queue. A new kind is one file in jobs/ and one line below.
 */
import { deleteListingsJob } from './delete-listings.js';
import { deliverAlertJob, type AlertJobDeps } from './deliver-alert.js';
import { editChatbotJob } from './edit-chatbot.js';
import { editKnowledgeJob } from './edit-knowledge.js';
import { legacyCreateListingJob, legacyUpdateListingJob } from './legacy-listing-jobs.js';
import type { JobKind, JobQueueName } from './support/job-context.js';
import { syncRunJob } from './sync-run.js';
import { writeListingsJob } from './write-listings.js';

/** A kind of the writes or sync-runs queue (their processors share src/queue/processor.ts). */
export type ListingQueueKind = JobKind<unknown>;
/** A kind of the alerts queue. */
export type AlertQueueKind = JobKind<unknown, AlertJobDeps, unknown>;

// Why no cast: a kind's process and onFinalFailure are methods, which TypeScript checks
// bivariantly, so a kind of a payload type T is one of unknown payload once its schema has parsed it.
const KINDS: ReadonlyArray<ListingQueueKind | AlertQueueKind> = [
  writeListingsJob,
  // Previous release's names, still run for jobs it queued (legacy-listing-jobs.ts says why).
  legacyCreateListingJob,
  legacyUpdateListingJob,
  deleteListingsJob,
  editChatbotJob,
  editKnowledgeJob,
  syncRunJob,
  deliverAlertJob,
];

const BY_NAME: ReadonlyMap<string, ListingQueueKind | AlertQueueKind> = new Map(KINDS.map((kind) => [kind.name, kind]));

/** The kind registered under `name` for `queue`, or undefined (no such kind, or one of another queue). */
export function jobKind(queue: 'alerts', name: string): AlertQueueKind | undefined;
export function jobKind(queue: Exclude<JobQueueName, 'alerts'>, name: string): ListingQueueKind | undefined;
export function jobKind(queue: JobQueueName, name: string): ListingQueueKind | AlertQueueKind | undefined;
export function jobKind(queue: JobQueueName, name: string): ListingQueueKind | AlertQueueKind | undefined {
  const kind = BY_NAME.get(name);
  return kind?.queue === queue ? kind : undefined;
}

/** The kind registered under `name` in any queue (what a job no longer in a queue was). */
export function anyJobKind(name: string): ListingQueueKind | AlertQueueKind | undefined {
  return BY_NAME.get(name);
}

/** The kinds a sync's plan becomes jobs of, in the order its jobs are enqueued (creates and updates before deletes). */
export function planKinds(): ListingQueueKind[] {
  return KINDS.filter((kind): kind is ListingQueueKind => kind.queue !== 'alerts' && (kind as ListingQueueKind).jobsFor !== undefined);
}
