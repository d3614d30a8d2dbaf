/**
 * A listing as read back from the service (RealEstateList), after the api normaliser turned the
 * read shape (strings, loose forms) into the write shape's types. Only the fields the read
 * shape can show are present: a field absent here was not returned, not "empty".
 *
 * A whole chatbot's listings are held in a RemoteTable (remote-table.ts: columns, not one
 * object per listing).
 */
import type { ListingFields, SyncKeyType } from '../listing.js';

export interface RemoteListing {
  /** The service-issued id (NewOaks key), as a string. */
  id: string;
  fields: Partial<ListingFields>;
}

/** What a sync read from the service for one chatbot. */
export interface RemoteSnapshot {
  chatbot: string;
  /** Every remote listing read, by position in service order (a RemoteTable from readRemoteSnapshot). */
  rows: RemoteRows;
  /** VirtualCount as first reported. */
  virtualCount: number;
  /** True when items read = VirtualCount, no page failed, no drift and no key on two pages. */
  complete: boolean;
  /** Why the snapshot is incomplete (empty when complete). */
  incompleteReasons: string[];
}

/** The key of a listing's fields under a key type, trimmed; '' when it has none. */
export function keyOfFields(fields: Partial<ListingFields>, keyType: SyncKeyType): string {
  const value = keyType === 'MLSNumber' ? fields.MLSNumber : fields.Url;
  return typeof value === 'string' ? value.trim() : '';
}

/** Read access to remote listings by position; fields are built on demand. */
export interface RemoteRows {
  readonly length: number;
  id(position: number): string;
  /** The key under a key type, trimmed; '' when it has none. */
  key(position: number, keyType: SyncKeyType): string;
  fields(position: number): Partial<ListingFields>;
}

/** Position access over a plain array of listings (tests, planSync, one-off callers). */
export function remoteRows(listings: readonly RemoteListing[]): RemoteRows {
  const at = (position: number): RemoteListing => listings[position] as RemoteListing;
  return {
    length: listings.length,
    id: (position) => at(position).id,
    key: (position, keyType) => keyOfFields(at(position).fields, keyType),
    fields: (position) => at(position).fields,
  };
}

/** Every row as a RemoteListing (built on demand: for reports and tests, not for 1M rows). */
export function remoteListingsOf(rows: RemoteRows): RemoteListing[] {
  return Array.from({ length: rows.length }, (_, position) => ({ id: rows.id(position), fields: rows.fields(position) }));
}
