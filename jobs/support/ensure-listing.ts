/**
 * Makes sure one listing exists on the service with the feed's content, without ever creating a
 * second copy: when an earlier attempt may have reached the service, or the ledger says the key
 * exists remotely, the key is looked up first and a found listing is adopted (updated if it
 * differs, extra copies deleted by NewOaks id, the oldest kept).
 */
import { DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { ListingWrite, SyncKeyType } from '../../src/domain/listing.js';
import type { JobContext, JobDeps } from './job-context.js';
import { lookUpKey } from './lookup.js';

export interface EnsureTarget {
  chatbot: string;
  keyType: SyncKeyType;
  key: string;
  hash: string;
  listing: ListingWrite;
}

export interface EnsureResult {
  remoteId: string;
  /** 'created' = a create request made it; 'adopted' = a lookup found it. */
  how: 'created' | 'adopted';
}

/**
 * Creates the listing, or adopts the copy a lookup finds. `lookUpFirst` says whether an earlier
 * attempt may have reached the service; `entry` is the ledger's current entry for the key.
 */
export async function ensureListing<T>(
  ctx: JobContext<T>,
  deps: JobDeps,
  target: EnsureTarget,
  lookUpFirst: boolean,
  entry: LedgerEntry | undefined,
): Promise<EnsureResult> {
  const callCtx = ctx.signal === undefined ? { listingKey: target.key } : { listingKey: target.key, signal: ctx.signal };
  if (lookUpFirst || entry !== undefined) {
    const found = await lookUpKey(deps, target.chatbot, target.keyType, target.listing, ctx.signal);
    const [keep, ...extras] = found;
    if (keep !== undefined) {
      ctx.log(`found ${found.length} listing(s) for ${target.key}; keeping ${keep.id}`);
      if (extras.length > 0) {
        await deps.api.deleteListings({ SerialNumber: target.chatbot, Keys: extras.map((l) => l.id), KeyType: 'NewOaks' }, callCtx);
      }
      const changes = diffListing(target.listing, keep.fields, { volatileFields: deps.volatileFields ?? DEFAULT_VOLATILE_FIELDS });
      // Why the hash too: the read shape hides some fields, so a listing someone else wrote with
      // the same visible fields may still differ; our own earlier attempt never has an entry.
      const hiddenDiffer = entry !== undefined && entry.hash !== target.hash;
      if (changes.length > 0 || hiddenDiffer) {
        await deps.api.updateListing({ ...target.listing, Key: keep.id, KeyType: 'NewOaks' }, callCtx);
      }
      return { remoteId: keep.id, how: 'adopted' };
    }
  }
  const remoteId = await deps.api.createListing(target.listing, callCtx);
  return { remoteId, how: 'created' };
}
