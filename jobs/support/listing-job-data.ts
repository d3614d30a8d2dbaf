/** Payload parts shared by the listing jobs: which run, chatbot and key the job is about. */
import { z } from 'zod';
import { SYNC_KEY_TYPES } from '../../src/domain/listing.js';

/** The listing jobs' names, in one place: the kinds (create-listing.ts, …) and the batching (listing-batches.ts) both need them. */
export const CREATE_LISTING = 'create-listing';
export const UPDATE_LISTING = 'update-listing';
export const WRITE_LISTINGS = 'write-listings';

export const listingJobBaseSchema = z.object({
  runId: z.string().min(1),
  chatbot: z.string().min(1),
  keyType: z.enum(SYNC_KEY_TYPES),
  key: z.string().min(1),
  /** Content hash of the listing sent, recorded in the ledger once written. */
  hash: z.string().min(1),
  /**
   * Starts this listing had inside a shared job before it got a job of its own
   * (write-listings.ts): they count as earlier starts, so a create looks its key up first.
   */
  startedBefore: z.number().int().min(0).optional(),
});
