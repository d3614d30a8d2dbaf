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
import { KEY_FIELD, TIMESTAMP_FIELD } from './replication-query.js';
import { pullIncomplete } from './reso-errors.js';
import type { ResoRecord } from './types.js';

export const PHOTOS_CHANGE_FIELD = 'PhotosChangeTimestamp';
const RECORD_KEY = 'ResourceRecordKey';

/** Keys per `ListingKey in (…)` request: a thousand would make a URL past what many servers take. */
export const KEYS_PER_REQUEST = 100;

export interface PhotoChangeOptions {
  propertyUrl: string;
  mediaUrl: string;
  /** The `$filter` literal the pull started at (the watermark less the overlap). */
  since: string;
  pageSize: number;
  logger?: Logger;
}

async function collect(
  source: JsonSource,
  options: PhotoChangeOptions,
  resourceUrl: string,
  filter: string,
  keyField: string,
  select: string[],
  into: Set<string>,
  read: (row: ResoRecord) => unknown,
): Promise<void> {
  const progress = newProgress();
  const pages = keyedPages(
    source,
    {
      resourceUrl,
      query: { filter, select },
      order: { timestampField: TIMESTAMP_FIELD, keyField },
      pageSize: options.pageSize,
      ...(options.logger ? { logger: options.logger } : {}),
    },
    progress,
  );
  for await (const page of pages)
    for (const row of page) {
      const key = read(row);
      if (typeof key === 'string' && key !== '') into.add(key);
    }
  if (!progress.complete) throw pullIncomplete(displaySource(resourceUrl), progress.received, progress.expected);
}

/** ListingKeys whose photos changed since `options.since`, by the Media's own ModificationTimestamp. */
export async function photoChangedKeys(source: JsonSource, options: PhotoChangeOptions): Promise<Set<string>> {
  const keys = new Set<string>();
  const filter = `${TIMESTAMP_FIELD} ge ${options.since}`;
  const select = ['MediaKey', RECORD_KEY, TIMESTAMP_FIELD];
  await collect(source, options, options.mediaUrl, filter, 'MediaKey', select, keys, (row) => row[RECORD_KEY]);
  return keys;
}

/** The `$filter` of records by key, `ListingKey in (…)`. */
export function keysFilter(keys: readonly string[]): string {
  return `${KEY_FIELD} in (${keys.map(odataString).join(',')})`;
}
