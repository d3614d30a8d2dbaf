/**
 * The field names a replication pages, filters and matches by, taken from the server's
 * `$metadata` (the key from `<Key><PropertyRef>`, the timestamps from the declared properties),
 * with the RESO Data Dictionary 2.0 names where it publishes none. Pure.
 */
import { declares, resourceOf, type ResourceMetadata, type ServiceMetadata } from './service-metadata.js';

export interface ReplicationFields {
  /** Property's key (DD: ListingKey): the last order term, the cursor, the photos' ResourceRecordKey. */
  key: string;
  /** Property's modification stamp (DD: ModificationTimestamp): the first order term and the watermark. */
  timestamp: string;
  /** Property's PhotosChangeTimestamp, only when the metadata declares it. */
  photosChange?: string;
  /** Media's key (DD: MediaKey) and modification stamp (DD: ModificationTimestamp). */
  mediaKey: string;
  mediaTimestamp: string;
}

/** The Data Dictionary 2.0 names: what a server without `$metadata` is replicated by. */
export const DD_FIELDS: Readonly<ReplicationFields> = {
  key: 'ListingKey',
  timestamp: 'ModificationTimestamp',
  mediaKey: 'MediaKey',
  mediaTimestamp: 'ModificationTimestamp',
};

const STAMP_TYPE = 'Edm.DateTimeOffset';
const PHOTOS_CHANGE = 'PhotosChangeTimestamp';

/**
 * The resource's modification stamp: `standard` when declared; otherwise the one DateTimeOffset
 * field whose name ends with it (a server's `ListingModificationTimestamp`). Why no guess beyond
 * that: a wrong stamp field would make a wrong watermark; with none found the DD name is asked and
 * a server without it answers with an error the user can read.
 */
function stampField(resource: ResourceMetadata, standard: string): string {
  if (declares(resource, standard)) return standard;
  const ending = standard.toLowerCase();
  const candidates = Object.entries(resource.fields).filter(([name, type]) => type === STAMP_TYPE && name.toLowerCase().endsWith(ending));
  return candidates.length === 1 && candidates[0] !== undefined ? candidates[0][0] : standard;
}

/** The fields of a replication against a server with `metadata` (DD_FIELDS without). */
export function replicationFields(metadata: ServiceMetadata | undefined): ReplicationFields {
  const property = resourceOf(metadata, 'Property');
  const media = resourceOf(metadata, 'Media');
  return {
    key: property?.key ?? DD_FIELDS.key,
    timestamp: property === undefined ? DD_FIELDS.timestamp : stampField(property, DD_FIELDS.timestamp),
    ...(property !== undefined && property.fields[PHOTOS_CHANGE] === STAMP_TYPE ? { photosChange: PHOTOS_CHANGE } : {}),
    mediaKey: media?.key ?? DD_FIELDS.mediaKey,
    mediaTimestamp: media === undefined ? DD_FIELDS.mediaTimestamp : stampField(media, DD_FIELDS.mediaTimestamp),
  };
}
