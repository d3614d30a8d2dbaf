/**
 * The single-listing kinds of the previous release, `create-listing` and `update-listing`, as
 * aliases of write-listings. Why they are still registered: jobs the previous release queued (a
 * run in flight during an upgrade, failed jobs kept for `jobs retry`, listings its carriers split
 * off) keep those names and payloads in Redis; each is run as the batch of one it now would be,
 * under its own id, so its outcome, claim and failure records are the listing's own. Sealed and
 * gated as any job (src/queue/job-gate.ts): only jobs listing-sync enqueued for this service run.
 * Remove them one release after the one that stopped adding them.
 */
import { createListingDataSchema, type CreateListingData } from './create-listing.js';
import type { JobContext, JobKind } from './support/job-context.js';
import { CREATE_LISTING, UPDATE_LISTING } from './support/listing-job-data.js';
import { updateListingDataSchema, type UpdateListingData } from './update-listing.js';
import { writeListingsJob, type WriteListingsData } from './write-listings.js';

/** A previous release's job `ctx` (old name and payload) as the write-listings batch of one it stands for. */
function asBatch<T extends CreateListingData | UpdateListingData>(ctx: JobContext<T>, name: typeof CREATE_LISTING | typeof UPDATE_LISTING) {
  const { runId, chatbot, keyType, startedBefore } = ctx.data;
  const data: WriteListingsData = {
    runId,
    chatbot,
    keyType,
    items: [{ id: ctx.id, name, data: ctx.data }],
    ...(startedBefore === undefined ? {} : { startedBefore }),
  };
  return { ...ctx, data };
}

function legacyAlias<T extends CreateListingData | UpdateListingData>(
  name: typeof CREATE_LISTING | typeof UPDATE_LISTING,
  schema: JobKind<T>['schema'],
): JobKind<T> {
  return {
    name,
    queue: writeListingsJob.queue,
    schema,
    process: (ctx, deps) => writeListingsJob.process(asBatch(ctx, name), deps),
    onFinalFailure: (ctx, deps, failure) => writeListingsJob.onFinalFailure(asBatch(ctx, name), deps, failure),
  };
}

export const legacyCreateListingJob = legacyAlias<CreateListingData>(CREATE_LISTING, createListingDataSchema);
export const legacyUpdateListingJob = legacyAlias<UpdateListingData>(UPDATE_LISTING, updateListingDataSchema);
