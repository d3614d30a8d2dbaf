/**
 * create-listing: how a listing is created (in its write-listings batch), never twice. The
 * pre-write probe (record.ts prepareWrite) claims the key, or completes the job without a request
 * (superseded, cancelled); a possible earlier reach of the service (see WriteGo.lookUpFirst) or a
 * ledger entry makes it look the key up first.
 */
import type { z } from 'zod';
import { listingWriteSchema } from '../src/domain/listing.js';
import { markParsed } from '../src/shared/parsed-marks.js';
import { ensureListing } from './support/ensure-listing.js';
import type { ListingWrite } from './support/job-context.js';
import { CREATE_LISTING, listingJobBaseSchema } from './support/listing-job-data.js';
import { prepareWrite, recordWrite } from './support/record.js';

export { CREATE_LISTING };

export const createListingDataSchema = listingJobBaseSchema.extend({ listing: listingWriteSchema });
export type CreateListingData = z.infer<typeof createListingDataSchema>;

export const createListingJob: ListingWrite<CreateListingData> = {
  name: CREATE_LISTING,
  schema: createListingDataSchema,
  async process(ctx, deps) {
    const { data } = ctx;
    // The listing is listingWriteSchema's output (parsed as job data): the client need not parse it again.
    markParsed(listingWriteSchema, data.listing);
    const go = await prepareWrite(ctx, deps);
    if ('finished' in go) return go.finished;
    return await go.underClaim(async () => {
      const result = await ensureListing(ctx, deps, data, go);
      await recordWrite(ctx, deps, 'created', result.remoteId);
      return { outcome: 'created', remoteId: result.remoteId, ...(result.how === 'adopted' ? { note: 'found by lookup' } : {}) };
    });
  },
};
