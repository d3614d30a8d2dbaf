/**
 * Looks a listing key up on the service, for writes whose earlier attempt may have reached it
 * (no duplicates, ever). MLSNumber keys use the list filter; URL keys page the list narrowed by
 * city (the service has no URL filter) and match Url exactly.
 */
import type { ApiClient } from '../../src/api/client-contract.js';
import { isRateLimited } from '../../src/api/errors.js';
import { normaliseReadItem } from '../../src/api/normalise-read.js';
import { isRetryable } from '../../src/api/retry-policy.js';
import type { ListListingsData, ListRequest } from '../../src/api/schemas.js';
import type { ListingFields, SyncKeyType } from '../../src/domain/listing.js';
import type { RemoteListing } from '../../src/domain/snapshot/remote.js';

const PAGE_SIZE = 100;
const READ_TRIES = 3;

/**
 * One list page, tried up to READ_TRIES times on transient failures. Why retry in place: a read
 * is idempotent, and failing the whole attempt on a read would make a create under faults need
 * two lucky requests per attempt (the attempt budget is sized for one). Rate limits still go
 * to the queue at once.
 */
async function listPage(api: ApiClient, request: ListRequest, ctx: { listingKey: string; signal?: AbortSignal }): Promise<ListListingsData> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api.listListings(request, ctx);
    } catch (thrown) {
      if (attempt >= READ_TRIES || isRateLimited(thrown) || !isRetryable(thrown)) throw thrown;
      await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    }
  }
}

function byOldestId(a: RemoteListing, b: RemoteListing): number {
  const na = Number(a.id);
  const nb = Number(b.id);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Every remote listing holding `key`, oldest first. */
export async function lookUpKey(api: ApiClient, chatbot: string, keyType: SyncKeyType, listing: ListingFields, signal?: AbortSignal): Promise<RemoteListing[]> {
  const key = keyType === 'MLSNumber' ? listing.MLSNumber : listing.Url;
  const ctx = signal === undefined ? { listingKey: key } : { listingKey: key, signal };
  const filter = keyType === 'MLSNumber' ? { MLSNumber: key } : listing.City ? { CityName: listing.City } : {};
  const found: RemoteListing[] = [];
  for (let page = 1; ; page += 1) {
    const data = await listPage(api, { SerialNumber: chatbot, ...filter, PageNumber: page, PageSize: PAGE_SIZE }, ctx);
    for (const item of data.List) {
      const held = keyType === 'MLSNumber' ? item.MLSNumber : item.Url;
      if (held.trim() === key) found.push(normaliseReadItem(item));
    }
    if (data.List.length < PAGE_SIZE || page * PAGE_SIZE >= data.VirtualCount) break;
  }
  return found.sort(byOldestId);
}
