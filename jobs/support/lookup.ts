/**
 * Looks a listing key up on the service, for writes whose earlier attempt may have reached it
 * (no duplicates, ever). MLSNumber keys use the list filter; URL keys page the list narrowed by
 * city (the service has no URL filter) and match Url exactly.
 */
import type { ApiClient } from '../../src/api/client-contract.js';
import { isRateLimited } from '../../src/api/errors.js';
import { listPager } from '../../src/api/list-pages.js';
import { normaliseReadItem } from '../../src/api/normalise-read.js';
import type { ReadRetrySchedule } from '../../src/net/retry-read.js';
import type { RetryTable } from '../../src/api/retry-policy.js';
import { compareIds } from '../../src/domain/id-order.js';
import type { ListingFields, SyncKeyType } from '../../src/domain/listing.js';
import type { RemoteListing } from '../../src/domain/snapshot/remote.js';

const PAGE_SIZE = 100;

/**
 * How a lookup's page read is retried, in place. Why retry in place: a read is idempotent, and
 * failing the whole attempt on a read would make a create under faults need two lucky requests
 * per attempt (the attempt budget is sized for one). Why short: the job holds its lock meanwhile,
 * and the queue's own backoff takes over after the last try.
 */
export const LOOKUP_READ_RETRY: ReadRetrySchedule = { attempts: 3, baseMs: 50, maxMs: 1_000 };

/** What a lookup needs besides the listing: the client and the configured retry table. */
export interface LookupDeps {
  api: ApiClient;
  retryTable: RetryTable;
}

/** Every remote listing holding `key`, oldest (lowest service id) first. */
export async function lookUpKey(deps: LookupDeps, chatbot: string, keyType: SyncKeyType, listing: ListingFields): Promise<RemoteListing[]> {
  const key = keyType === 'MLSNumber' ? listing.MLSNumber : listing.Url;
  const filter = keyType === 'MLSNumber' ? { MLSNumber: key } : listing.City ? { CityName: listing.City } : {};
  // Why rate limits are handed back at once: the queue then slows every worker, not just this one.
  const retry = { ...LOOKUP_READ_RETRY, table: deps.retryTable, handBack: isRateLimited };
  const pager = listPager(deps.api, { SerialNumber: chatbot, ...filter }, { pageSize: PAGE_SIZE, retry, listingKey: key });
  const found: RemoteListing[] = [];
  for await (const page of pager.pages()) {
    for (const item of page.items) {
      const held = keyType === 'MLSNumber' ? item.MLSNumber : item.Url;
      if (held.trim() === key) found.push(normaliseReadItem(item));
    }
  }
  return found.sort((a, b) => compareIds(a.id, b.id));
}
