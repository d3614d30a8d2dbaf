/**
 * Listings whose photos changed alone. A Media record changed on its own moves its own
 * ModificationTimestamp, not the Property's (RESO's reference server does this, and never sets
 * PhotosChangeTimestamp either), so an incremental pull by the Property's stamp never sees it.
 * After the pull, the Media resource is asked for what changed since the watermark; the listings
 * found, less those the pull already brought, are read again by key, photos included. (Where
 * Property has PhotosChangeTimestamp, the pull's own filter asks it too: replication-query.ts.)
 */
import type { Logger } from '../../runtime/logger.js';
import { displaySource } from '../feed-source.js';
import { keyedPages, newProgress, type JsonSource } from './keyed-pager.js';
import { odataString } from './odata-url.js';
import type { ReplicationFields } from './replication-fields.js';
import { pullIncomplete } from './reso-errors.js';

const RECORD_KEY = 'ResourceRecordKey';

/** Keys per `ListingKey in (…)` request: a thousand would make a URL past what many servers take. */
export const KEYS_PER_REQUEST = 100;

export interface PhotoChangeOptions {
  mediaUrl: string;
  /** The `$filter` literal the pull started at (the watermark less the overlap). */
  since: string;
  pageSize: number;
  fields: Pick<ReplicationFields, 'mediaKey' | 'mediaTimestamp'>;
  logger?: Logger;
}

/** ListingKeys whose photos changed since `options.since`, by the Media's own ModificationTimestamp. */
export async function photoChangedKeys(source: JsonSource, options: PhotoChangeOptions): Promise<Set<string>> {
  const keys = new Set<string>();
  const { mediaKey, mediaTimestamp } = options.fields;
  const progress = newProgress();
  const pages = keyedPages(
    source,
    {
      resourceUrl: options.mediaUrl,
      query: { filter: `${mediaTimestamp} ge ${options.since}`, select: [mediaKey, RECORD_KEY, mediaTimestamp] },
      order: { timestampField: mediaTimestamp, keyField: mediaKey },
      pageSize: options.pageSize,
      ...(options.logger ? { logger: options.logger } : {}),
    },
    progress,
  );
  for await (const page of pages)
    for (const photo of page) {
      const owner = photo[RECORD_KEY];
      if (typeof owner === 'string' && owner !== '') keys.add(owner);
    }
  if (!progress.complete) throw pullIncomplete(displaySource(options.mediaUrl), progress.received, progress.expected);
  return keys;
}

/** The `$filter` of records by key, `ListingKey in (…)`. */
export function keysFilter(keyField: string, keys: readonly string[]): string {
  return `${keyField} in (${keys.map(odataString).join(',')})`;
}
