/**
 * Photos of Property records as each record's `Media` array in `Order`, the shape the reso
 * profile maps to Images (profiles/reso-values.ts `photoUrls`: MediaURL, photos only, by Order).
 * RESO servers do not promise Media in Order, so it is sorted here too. The photos come from
 * `$expand=Media`, or, where a server refuses `$expand`, from the Media resource by
 * `ResourceRecordKey in (...)` for the keys of each page.
 */
import type { Logger } from '../../runtime/logger.js';
import { keyedPages, newProgress, type JsonSource } from './keyed-pager.js';
import { odataString } from './odata-url.js';
import type { ReplicationFields } from './replication-fields.js';
import { displaySource } from '../feed-source.js';
import { pullIncomplete } from './reso-errors.js';
import type { ResoRecord } from './types.js';

export const MEDIA_FIELD = 'Media';
const RECORD_KEY = 'ResourceRecordKey';

/** A photo's place: its Order, or after every ordered one (keeping the server's order among those without). */
function placeOf(item: unknown): number {
  const order = typeof item === 'object' && item !== null ? (item as { Order?: unknown }).Order : undefined;
  const value = typeof order === 'number' ? order : typeof order === 'string' ? Number(order) : Number.NaN;
  return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
}

/** A copy of a Media array sorted by Order (stable); anything else as it is. */
export function mediaInOrder(media: unknown): unknown {
  if (!Array.isArray(media)) return media;
  return media
    .map((item: unknown) => ({ item, place: placeOf(item) }))
    .sort((a, b) => a.place - b.place)
    .map(({ item }) => item);
}

/** Sorts the expanded Media of every record in place. */
export function sortExpandedMedia(records: readonly ResoRecord[]): void {
  for (const record of records) if (MEDIA_FIELD in record) record[MEDIA_FIELD] = mediaInOrder(record[MEDIA_FIELD]);
}

export interface MediaResourceOptions {
  /** The Media resource, e.g. https://mls.example/odata/Media */
  mediaUrl: string;
  pageSize: number;
  /** The Property key the photos' ResourceRecordKey names, and the Media key they are paged by. */
  fields: Pick<ReplicationFields, 'key' | 'mediaKey'>;
  /**
   * Keys per Media request (default 100). Why a limit: `in (...)` with a page's thousand keys makes
   * a URL of ~17 KB, past what many servers (Node's own 16 KB header limit among them) accept.
   */
  keysPerRequest?: number;
  logger?: Logger;
}

/** Reads the photos of `records` from the Media resource and sets each record's `Media` (an empty array when it has none). */
export async function attachMediaFromResource(
  source: JsonSource,
  records: readonly ResoRecord[],
  options: MediaResourceOptions,
): Promise<number> {
  const keyed = new Map<string, ResoRecord>();
  for (const record of records) {
    const key = record[options.fields.key];
    if (typeof key === 'string') keyed.set(key, record);
  }
  const photos = new Map<string, unknown[]>([...keyed.keys()].map((key) => [key, []]));
  const keys = [...keyed.keys()];
  const chunk = Math.max(1, options.keysPerRequest ?? 100);
  let received = 0;
  for (let start = 0; start < keys.length; start += chunk) {
    const filter = `${RECORD_KEY} in (${keys
      .slice(start, start + chunk)
      .map(odataString)
      .join(',')})`;
    const progress = newProgress();
    const pager = keyedPages(
      source,
      {
        resourceUrl: options.mediaUrl,
        query: { filter },
        order: { keyField: options.fields.mediaKey },
        pageSize: options.pageSize,
        ...(options.logger ? { logger: options.logger } : {}),
      },
      progress,
    );
    for await (const page of pager) {
      for (const photo of page) {
        const owner = photo[RECORD_KEY];
        if (typeof owner === 'string') photos.get(owner)?.push(photo);
      }
    }
    received += progress.received;
    // Why fail rather than go on: a record written with some of its photos missing would drop them from the chatbot.
    if (!progress.complete) throw pullIncomplete(displaySource(options.mediaUrl), progress.received, progress.expected);
  }
  for (const [key, record] of keyed) record[MEDIA_FIELD] = mediaInOrder(photos.get(key) ?? []);
  return received;
}
