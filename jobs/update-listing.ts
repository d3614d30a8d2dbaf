/**
 * update-listing: how a listing is updated (in its write-listings batch): the whole feed listing
 * for a key. When nothing matched (Data 0) the plan says the listing should exist, so it is
 * created — with the same lookup-first rule as a create.
 */
import { z } from 'zod';
import { listingUpdateSchema } from '../src/domain/listing.js';
import { ensureListing } from './support/ensure-listing.js';
import type { ListingWrite } from './support/job-context.js';
import { listingJobBaseSchema, UPDATE_LISTING } from './support/listing-job-data.js';
import { prepareWrite, recordWrite } from './support/record.js';

export { UPDATE_LISTING };

export const updateListingDataSchema = listingJobBaseSchema.extend({
  update: listingUpdateSchema,
  remoteId: z.string().optional(),
});
export type UpdateListingData = z.infer<typeof updateListingDataSchema>;

export const updateListingJob: ListingWrite<UpdateListingData> = {
  name: UPDATE_LISTING,
  schema: updateListingDataSchema,
  async process(ctx, deps) {
    const { data } = ctx;
    const go = await prepareWrite(ctx, deps);
    if ('finished' in go) return go.finished;
    return await go.underClaim(async () => {
      const matched = await deps.api.updateListing(data.update, { listingKey: data.key });
      if (matched > 0) {
        await recordWrite(ctx, deps, 'updated', data.remoteId ?? go.entry?.remoteId);
        return { outcome: 'updated' as const };
      }
      const { Key: _key, KeyType: _keyType, ...listing } = data.update;
      ctx.log(`update of ${data.key} matched nothing; creating it`);
      // The entry is left out: it describes the listing that vanished, not one to adopt.
      const result = await ensureListing(ctx, deps, { ...data, listing }, { ...go, entry: undefined });
      await recordWrite(ctx, deps, 'created', result.remoteId);
      return { outcome: 'created' as const, remoteId: result.remoteId, note: 'update matched nothing' };
    });
  },
};
