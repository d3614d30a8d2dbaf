/**
 * Makes sure one listing exists on the service with the feed's content, without ever creating a
 * second copy: when an earlier attempt may have reached the service, or the ledger says the key
 * exists remotely, the key is looked up first and a found listing is adopted (updated if it
 * differs, extra copies deleted by NewOaks id, the oldest kept).
 */
import { DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import { hashParts } from '../../src/domain/hash.js';
import type { ListingWrite, SyncKeyType } from '../../src/domain/listing.js';
import type { CallContext } from '../../src/api/client-contract.js';
import { errorCode } from '../../src/shared/errors.js';
import type { JobContext, JobDeps } from './job-context.js';
import type { WriteGo } from './record.js';
import { lookUpKey } from './lookup.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

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
 * Creates the listing, or adopts the copy a lookup finds. `go` is the key's claim for this start
 * (record.ts prepareWrite): whether an earlier attempt may have reached the service, the ledger's
 * current entry for the key, and the fence the create must be sent by.
 */
export async function ensureListing<T>(ctx: JobContext<T>, deps: JobDeps, target: EnsureTarget, go: WriteGo): Promise<EnsureResult> {
  const { entry } = go;
  const callCtx = { listingKey: target.key };
  if (go.lookUpFirst || entry !== undefined) {
    const found = await lookUpKey(deps, target.chatbot, target.keyType, target.listing);
    const [keep, ...extras] = found;
    if (keep !== undefined) {
      ctx.log(`found ${found.length} listing(s) for ${target.key}; keeping ${keep.id}`);
      if (extras.length > 0) {
        await deps.api.deleteListings({ SerialNumber: target.chatbot, Keys: extras.map((l) => l.id), KeyType: 'NewOaks' }, callCtx);
      }
      const changes = diffListing(target.listing, keep.fields, { volatileFields: deps.volatileFields ?? DEFAULT_VOLATILE_FIELDS });
      // Why the hash too: the read shape hides some fields, so a listing someone else wrote with
      // the same visible fields may still differ; our own earlier attempt never has an entry.
      const hiddenDiffer = entry !== undefined && hashParts(entry.hash).hash !== hashParts(target.hash).hash;
      if (changes.length > 0 || hiddenDiffer) {
        await deps.api.updateListing({ ...target.listing, Key: keep.id, KeyType: 'NewOaks' }, callCtx);
      }
      return { remoteId: keep.id, how: 'adopted' };
    }
  }
  const remoteId = await createWithinFence(ctx, deps, target.listing, callCtx, go);
  return { remoteId, how: 'created' };
}

/**
 * Sends the create by the claim's fence; past it (nothing was sent), confirms the claim and tries
 * again. Why: another start of this job may take the key over once the fence and the longest
 * request have passed (store/write-claims.ts), so a create must never leave later than that.
 */
async function createWithinFence<T>(
  ctx: JobContext<T>,
  deps: JobDeps,
  listing: ListingWrite,
  callCtx: CallContext,
  go: WriteGo,
): Promise<string> {
  let sendBy = go.sendBy;
  for (;;) {
    try {
      return await deps.api.createListing(listing, { ...callCtx, sendBy });
    } catch (thrown) {
      if (errorCode(thrown) !== ErrorCode.SEND_WINDOW_PASSED) throw thrown;
      ctx.log('the key claim was confirmed too long ago to send the create; confirming it again');
      sendBy = await go.confirm();
    }
  }
}
