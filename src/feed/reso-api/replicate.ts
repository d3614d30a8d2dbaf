/**
 * One replication run against a RESO Web API Property resource: the pages of a first run, of an
 * incremental pull since a watermark, or of a key sweep, with photos attached, through the feed
 * client's budget, auth and retry policies. The caller plans and enqueues each page, then stores
 * `maxTimestamp` as the next watermark; a sweep deletes only when `complete`.
 */
import type { Logger } from '../../runtime/logger.js';
import { UsageError } from '../../shared/errors.js';
import { feedInterrupted } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { FeedClient, type FeedClientOptions } from './feed-client.js';
import { attachMediaFromResource, sortExpandedMedia } from './media.js';
import { keyedPages, newProgress } from './keyed-pager.js';
import { translateLookups, type LookupTable } from './lookups.js';
import { KEYS_PER_REQUEST, keysFilter, photoChangedKeys } from './photo-changes.js';
import { declares, resourceOf, type ServiceMetadata } from './service-metadata.js';
import { replicationFields } from './replication-fields.js';
import { pullStart, replicationQuery } from './replication-query.js';
import { pullIncomplete, refusedStatus } from './reso-errors.js';
import { compareStamps, parseStamp, stampLiteral, type Stamp } from './timestamps.js';
import type { ReplicationResult, ResoRecord } from './types.js';

export interface ReplicateOptions extends FeedClientOptions {
  /** The Property resource, e.g. https://mls.example/odata/Property (a query string of its own is kept). */
  propertyUrl: string;
  /** The Media resource (default: `Media` beside the Property resource). */
  mediaUrl?: string;
  /** Pull every record's keys only (ListingKey, `keyFields`, ModificationTimestamp). */
  sweep?: boolean;
  /** The largest ModificationTimestamp of the last run whose pages were enqueued; absent on a first run. */
  watermark?: string;
  /** Start this long before the watermark (default 0). */
  overlapMs?: number;
  /** Records per page asked with `Prefer: odata.maxpagesize` (default 1000, the largest page most MLSs serve). */
  pageSize?: number;
  /** Fields the listings are keyed by besides ListingKey (default ListingId, the reso profile's MLSNumber). */
  keyFields?: readonly string[];
  /** `$select` of a pull (key and timestamp fields are added); default every field. */
  select?: readonly string[];
  /** Photos: `$expand=Media` (default; falls back to the Media resource when refused), the Media resource, or none. */
  media?: 'expand' | 'resource' | 'none';
  /** Keys per request to the Media resource (default 100). */
  mediaKeysPerRequest?: number;
  /**
   * The server's `$metadata`, when it publishes one: the key and stamp fields are its own
   * (replication-fields.ts), `$select` names only its fields, PhotosChangeTimestamp is asked if it exists.
   */
  metadata?: ServiceMetadata;
  /** The server's own lookup values → their standard ones (its Lookup resource), applied to each record. */
  lookups?: LookupTable;
  /** An incremental pull also reads the listings whose photos changed alone (default true; photo-changes.ts). */
  photoChanges?: boolean;
  /** ListingKeys an incremental pull reads again whatever their stamps (listings whose photos were not all hosted). */
  recheckKeys?: readonly string[];
  logger?: Logger;
}

export interface ReplicationRun {
  /**
   * The pages in order, each with its photos; returns the result. Throws on a halt (BUDGET_EXHAUSTED,
   * FEED_RATE_LIMITED…) or an abort (FEED_INTERRUPTED).
   */
  pages: AsyncGenerator<ResoRecord[], ReplicationResult, undefined>;
  /** The result so far, readable at any time (after a halt too); complete once `pages` ended by itself. */
  result(): ReplicationResult;
}

/** The Media resource beside a Property resource, keeping its query string. */
export function mediaUrlBeside(propertyUrl: string): string {
  const url = new URL(propertyUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, 'Media');
  return url.href;
}

/** Starts a replication run; nothing is requested until `pages` is iterated. */
export function replicate(options: ReplicateOptions): ReplicationRun {
  const client = new FeedClient(options);
  const pageSize = options.pageSize ?? 1000;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new UsageError(`the feed page size must be a whole number ≥ 1 (got ${pageSize})`);
  const progress = newProgress();
  let media: ReplicationResult['media'] = options.sweep === true ? 'none' : (options.media ?? 'expand');
  let complete = false;
  let records = 0;
  let newest: { stamp: Stamp; text: string } | undefined;

  const result = (): ReplicationResult => ({
    complete,
    maxTimestamp: newest?.text,
    requests: client.requests,
    bytes: client.bytes,
    records,
    ...(progress.expected === undefined ? {} : { expected: progress.expected }),
    pageSize,
    pagedBy: progress.pagedBy,
    media,
  });
  const logger = options.logger === undefined ? {} : { logger: options.logger };
  const property = resourceOf(options.metadata, 'Property');
  const fields = replicationFields(options.metadata);
  // Why only the fields the server has: servers drop unknown $select names silently or refuse them.
  const keyFields = (options.keyFields ?? ['ListingId']).filter((name) => property === undefined || declares(property, name));
  const pager = (expandMedia: boolean, filter?: string, into = progress): AsyncGenerator<ResoRecord[]> => {
    const query = replicationQuery({ ...options, fields, keyFields, expandMedia });
    return keyedPages(
      client,
      {
        resourceUrl: options.propertyUrl,
        query: filter === undefined ? query : { ...query, filter },
        order: { timestampField: fields.timestamp, keyField: fields.key },
        pageSize,
        ...logger,
      },
      into,
    );
  };
  /** ListingKeys an incremental pull received, so a photo change of one of them is not read twice. */
  const pulled = options.watermark === undefined ? undefined : new Set<string>();
  const note = (rows: readonly ResoRecord[]): void => {
    records += rows.length;
    for (const row of rows) {
      const key = row[fields.key];
      if (pulled !== undefined && typeof key === 'string') pulled.add(key);
      const stamp = parseStamp(row[fields.timestamp]);
      if (stamp !== undefined && (newest === undefined || compareStamps(stamp, newest.stamp) > 0))
        newest = { stamp, text: String(row[fields.timestamp]) };
    }
  };

  async function* run(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    let pages = pager(media === 'expand');
    let step: IteratorResult<ResoRecord[]>;
    try {
      step = await pages.next();
    } catch (thrown) {
      // Why retry without $expand on any 400: servers word the refusal differently; if the 400 had
      // another cause, the request without $expand gets it too and it is thrown from there.
      if (media !== 'expand' || refusedStatus(thrown) !== 400) throw thrown;
      options.logger?.warn(
        { where: displaySource(options.propertyUrl) },
        'feed server refused $expand=Media; reading photos from the Media resource',
      );
      media = 'resource';
      pages = pager(false);
      step = await pages.next();
    }
    const mediaUrl = options.mediaUrl ?? mediaUrlBeside(options.propertyUrl);
    const withPhotos = async (rows: ResoRecord[]): Promise<ResoRecord[]> => {
      if (media === 'resource')
        await attachMediaFromResource(client, rows, {
          mediaUrl,
          pageSize,
          fields,
          ...logger,
          keysPerRequest: options.mediaKeysPerRequest ?? 100,
        });
      else if (media === 'expand') sortExpandedMedia(rows);
      if (options.signal?.aborted === true) throw feedInterrupted(displaySource(options.propertyUrl));
      note(rows);
      if (options.lookups !== undefined) translateLookups(rows, options.lookups);
      return rows;
    };
    for (; step.done !== true; step = await pages.next()) yield await withPhotos(step.value);
    if (!progress.complete) throw pullIncomplete(displaySource(options.propertyUrl), progress.received, progress.expected);
    if (pulled !== undefined && media !== 'none') {
      const since = stampLiteral(pullStart(options.watermark ?? '', options.overlapMs));
      const photoOptions = { mediaUrl, since, pageSize, fields, ...logger };
      const changed = options.photoChanges === false ? new Set<string>() : await photoChangedKeys(client, photoOptions);
      for (const key of options.recheckKeys ?? []) changed.add(key);
      const keys = [...changed].filter((key) => !pulled.has(key));
      for (let at = 0; at < keys.length; at += KEYS_PER_REQUEST) {
        const byKey = newProgress();
        for await (const rows of pager(media === 'expand', keysFilter(fields.key, keys.slice(at, at + KEYS_PER_REQUEST)), byKey))
          yield await withPhotos(rows);
        if (!byKey.complete) throw pullIncomplete(displaySource(options.propertyUrl), byKey.received, byKey.expected);
      }
    }
    complete = true;
    return result();
  }

  return { pages: run(), result };
}
