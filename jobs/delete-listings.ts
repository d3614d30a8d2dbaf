/**
 * delete-listings: deletes a batch of keys of one KeyType. A key already gone counts as done
 * (SuccessCount below the batch size is fine: the goal is that it is absent). Keys a newer run
 * wrote since are left alone. Ledger entries of listing keys are removed (tombstoned).
 */
import { z } from 'zod';
import { KEY_TYPES, SYNC_KEY_TYPES } from '../src/domain/listing.js';
import { DELETE_LISTINGS, deleteJobCount, deleteJobSpecs } from './support/delete-batches.js';
import type { JobKind } from './support/job-context.js';
import { recordFailure } from './support/record.js';

export { DELETE_LISTINGS };

export const deleteListingsDataSchema = z.object({
  runId: z.string().min(1),
  chatbot: z.string().min(1),
  /** The sync's key type (ledger keys). */
  keyType: z.enum(SYNC_KEY_TYPES),
  /** The KeyType the delete request is sent with ('NewOaks' for extra copies of a key). */
  deleteKeyType: z.enum(KEY_TYPES),
  keys: z.array(z.string().min(1)).min(1),
  /** Listing keys whose ledger entries this batch ends (listings gone from the feed). */
  ledgerKeys: z.array(z.string()),
});
export type DeleteListingsData = z.infer<typeof deleteListingsDataSchema>;

export const deleteListingsJob: JobKind<DeleteListingsData> = {
  name: DELETE_LISTINGS,
  queue: 'listing-writes',
  schema: deleteListingsDataSchema,
  async process(ctx, deps) {
    const { data } = ctx;
    const newer = await deps.store.ledger.newerWriters(data.chatbot, data.keyType, data.ledgerKeys, data.runId);
    const keys = data.deleteKeyType === 'NewOaks' ? data.keys : data.keys.filter((key) => !newer.has(key));
    if (keys.length > 0) {
      const deleted = await deps.api.deleteListings({ SerialNumber: data.chatbot, Keys: keys, KeyType: data.deleteKeyType }, {});
      if (deleted < keys.length) ctx.log(`${keys.length - deleted} of ${keys.length} keys were already gone`);
    }
    if (newer.size > 0) ctx.log(`left alone (a newer run wrote them): ${[...newer].join(', ')}`);
    const outcome = keys.length === 0 ? 'superseded' : 'deleted';
    await deps.store.jobFinish.finishJob({
      chatbot: data.chatbot,
      keyType: data.keyType,
      runId: data.runId,
      jobId: ctx.id,
      outcome,
      weight: keys.length === 0 ? data.keys.length : keys.length,
      attempt: ctx.attemptsStarted,
      now: deps.now(),
      mode: 'delete',
      keys: data.ledgerKeys.filter((key) => !newer.has(key)),
    });
    return { outcome };
  },
  jobsFor: (plan, runId, options) => deleteJobSpecs(plan, runId, options.deleteBatchSize),
  jobCountFor: (plan, options) => deleteJobCount(plan, options.deleteBatchSize),
  async onFinalFailure(ctx, deps, failure) {
    const keys = ctx.data.ledgerKeys.length > 0 ? ctx.data.ledgerKeys : [];
    await recordFailure(ctx, deps, keys, failure, ctx.data.keys.length);
  },
};
