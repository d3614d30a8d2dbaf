/**
 * A plan's creates and updates → one listing job each (name, deterministic id, exact payload),
 * creates first. Why a generator: each job's data is a copy of its listing; built chunk by chunk
 * as they are enqueued, a migration of 100k listings never holds a second copy of every listing
 * (bench:sync measures the peak RSS); a sync's plan spools its creates and updates to a file
 * (src/sync/plan-spool.ts), read back here one by one.
 */
import { recordedHash } from '../../src/domain/hash.js';
import { jobId } from '../../src/domain/job-id.js';
import type { Plan } from '../../src/domain/plan.js';
import type { CreateListingData } from '../create-listing.js';
import type { UpdateListingData } from '../update-listing.js';
import type { JobSpec } from './job-spec.js';
import { CREATE_LISTING, UPDATE_LISTING } from './listing-job-data.js';

/** How many listings `plan` writes (creates plus updates): each is a job of its own run. */
export function listingWriteCount(plan: Plan): number {
  return plan.creates.length + plan.updates.length;
}

/** The listing jobs of `plan`, one at a time: its creates, then its updates. */
export function* listingJobSpecs(plan: Plan, runId: string): Generator<JobSpec> {
  const { chatbot, keyType } = plan;
  for (const create of plan.creates) {
    const data: CreateListingData = {
      runId,
      chatbot,
      keyType,
      key: create.key,
      // The same hash the plan would have taken: the spool's JSON round trip keeps every value canonicalListingJson writes.
      hash: recordedHash(create.listing),
      listing: { ...create.listing, SerialNumber: chatbot },
    };
    yield { name: CREATE_LISTING, id: jobId({ kind: 'create', chatbot, keyType, key: create.key, runId }), data, touches: [create.key] };
  }
  for (const update of plan.updates) {
    const data: UpdateListingData = {
      runId,
      chatbot,
      keyType,
      key: update.key,
      hash: update.hash,
      update: { ...update.listing, SerialNumber: chatbot, Key: update.key, KeyType: keyType },
      ...(update.remoteId === undefined ? {} : { remoteId: update.remoteId }),
    };
    yield { name: UPDATE_LISTING, id: jobId({ kind: 'update', chatbot, keyType, key: update.key, runId }), data, touches: [update.key] };
  }
}
