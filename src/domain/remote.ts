/**
 * A listing as read back from the service (RealEstateList), after the api normaliser turned the
 * read shape (strings, loose forms) into the write shape's types. Only the fields the read
 * shape can show are present: a field absent here was not returned, not "empty".
 */
import type { ListingFields } from './listing.js';

export interface RemoteListing {
  /** The service-issued id (NewOaks key), as a string. */
  id: string;
  fields: Partial<ListingFields>;
}

/** What a sync read from the service for one chatbot. */
export interface RemoteSnapshot {
  chatbot: string;
  /** Every remote listing read, in the order the service paged them. */
  listings: RemoteListing[];
  /** VirtualCount as first reported. */
  virtualCount: number;
  /** True when items read = VirtualCount, no page failed, no drift and no key on two pages. */
  complete: boolean;
  /** Why the snapshot is incomplete (empty when complete). */
  incompleteReasons: string[];
}
