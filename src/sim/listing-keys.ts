/** How the simulated service finds a listing: by its ID (NewOaks), MLSNumber or Url (api-spec section 2.3). */
import type { KeyType } from './spec/requests.js';
import type { StoredListing } from './types.js';

/** The keys a listing is found by in a sync (section 2.3: MLSNumber and Url). */
export type SyncKeyType = Exclude<KeyType, 'NewOaks'>;

/** A stored listing's key of `keyType`. */
export function keyOf(listing: StoredListing, keyType: KeyType): string {
  if (keyType === 'NewOaks') return listing.ID;
  return keyType === 'MLSNumber' ? listing.MLSNumber : listing.Url;
}
