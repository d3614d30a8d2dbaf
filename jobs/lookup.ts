/**
 * Looks a listing key up on the service, for writes whose earlier attempt may have reached it
 * (no duplicates, ever). MLSNumber keys use the list filter; URL keys page the list narrowed by
 * city (the service has no URL filter) and match Url exactly.
 */
import type { ApiClient } from '../src/api/client-contract.js';
import { normaliseReadItem } from '../src/api/normalise-read.js';
import type { ListingFields, SyncKeyType } from '../src/domain/listing.js';
import type { RemoteListing } from '../src/domain/remote.js';

const PAGE_SIZE = 100;

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
    const data = await api.listListings({ SerialNumber: chatbot, ...filter, PageNumber: page, PageSize: PAGE_SIZE }, ctx);
    for (const item of data.List) {
      const held = keyType === 'MLSNumber' ? item.MLSNumber : item.Url;
      if (held.trim() === key) found.push(normaliseReadItem(item));
    }
    if (data.List.length < PAGE_SIZE || page * PAGE_SIZE >= data.VirtualCount) break;
  }
  return found.sort(byOldestId);
}
