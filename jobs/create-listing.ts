/**
 * create-listing: creates one listing, never twice. A newer run's write of the key completes it
 * as superseded without a request; a possible earlier reach of the service (attemptsStarted > 1:
 * a failed try, a stall after a worker died) or a ledger entry makes it look the key up first.
 */
import { z } from 'zod';
import { listingWriteSchema } from '../src/domain/listing.js';
import { ensureListing } from './ensure-listing.js';
import type { JobKind } from './job-context.js';
import { listingJobBaseSchema } from './listing-job-data.js';
import { recordFailure, recordWrite, supersededOrEntry } from './record.js';

export const CREATE_LISTING = 'create-listing';

export const createListingDataSchema = listingJobBaseSchema.extend({ listing: listingWriteSchema });
export type CreateListingData = z.infer<typeof createListingDataSchema>;

export const createListingJob: JobKind<CreateListingData> = {
  name: CREATE_LISTING,
  schema: createListingDataSchema,
  async process(ctx, deps) {
    const { data } = ctx;
    const ledger = await supersededOrEntry(ctx, deps);
    if ('superseded' in ledger) return ledger.superseded;
    const result = await ensureListing(ctx, deps, data, ctx.attemptsStarted > 1, ledger.entry);
    await recordWrite(ctx, deps, 'created', result.remoteId);
    return { outcome: 'created', remoteId: result.remoteId, ...(result.how === 'adopted' ? { note: 'found by lookup' } : {}) };
  },
  async onFinalFailure(ctx, deps, failure) {
    await recordFailure(ctx, deps, [ctx.data.key], failure, 1);
  },
};
