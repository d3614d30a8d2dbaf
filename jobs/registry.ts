/** Every job kind by name: src/queue registers its processors from here. */
import { createListingJob } from './create-listing.js';
import { deleteListingsJob } from './delete-listings.js';
import { editChatbotJob } from './edit-chatbot.js';
import { editKnowledgeJob } from './edit-knowledge.js';
import type { JobKind } from './support/job-context.js';
import { syncRunJob } from './sync-run.js';
import { updateListingJob } from './update-listing.js';
import { writeListingsJob } from './write-listings.js';

export const JOB_KINDS: ReadonlyMap<string, JobKind<unknown>> = new Map<string, JobKind<unknown>>(
  [createListingJob, updateListingJob, deleteListingsJob, editChatbotJob, editKnowledgeJob, syncRunJob, writeListingsJob].map((kind) => [
    kind.name,
    kind as unknown as JobKind<unknown>,
  ]),
);

/** The kind registered under `name`, or undefined. */
export function jobKind(name: string): JobKind<unknown> | undefined {
  return JOB_KINDS.get(name);
}
