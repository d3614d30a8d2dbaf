/**
 * Hosting a page of RESO records' photos before they are mapped: every photo of a record's Media
 * becomes `<base>/<object key>` (downloaded once, then known by the photo memory), so the planner
 * compares hosted URLs and no payload carries a source media host. A photo that could not be
 * fetched is left out of its listing this run (the others keep their Order) and its listing is
 * marked pending, to be read again by the next run. A signed URL found expired (403/410) is
 * refreshed by reading the record's Media again, once per run and page.
 */
import pLimit from 'p-limit';
import { DD_FIELDS } from '../reso-api/replication-fields.js';

/**
 * The record key photos are owned by. Why the Data Dictionary's name: a server that renames its key in
 * `$metadata` is paged by that name, but its records still carry the key the Media name as ResourceRecordKey.
 */
const KEY_FIELD = DD_FIELDS.key;
import type { ResoRecord } from '../reso-api/types.js';
import { isPhotoItem } from '../profiles/reso-values.js';
import { MEDIA_FIELD } from '../reso-api/media.js';
import type { FeedRequestBudget } from '../reso-api/budget.js';
import { downloadPhoto, type DownloadResult, type DownloadSettings } from './photo-download.js';
import { countFailure, emptyPhotoCounts, type PhotoCounts } from './photo-counts.js';
import { hostedUrl } from './object-key.js';

/** The Redis side (src/store/photo-memory.ts) as this step needs it, for one (chatbot, feed). */
export interface PhotoMemoryPort {
  recall(identities: readonly string[]): Promise<Map<string, string>>;
  remember(learned: ReadonlyMap<string, string>): Promise<void>;
  markPending(change: { add: readonly string[]; done: readonly string[] }): Promise<void>;
  /** The objects each listing of the page shows now (media gc keeps every object some listing shows). */
  reference(listings: ReadonlyMap<string, readonly string[]>): Promise<void>;
}

export interface PhotoHostingOptions {
  baseUrl: string;
  memory: PhotoMemoryPort;
  download: DownloadSettings;
  /** Downloads in flight at once. */
  concurrency?: number;
  /** The feed's budget: every download's bytes are counted in its bytes-per-hour window. */
  budget?: FeedRequestBudget;
  /** Reads the Media of these ListingKeys again (fresh signed URLs), through the feed's budget. */
  refreshMedia?: (listingKeys: readonly string[]) => Promise<Map<string, unknown[]>>;
  /**
   * A dry run: nothing is downloaded and nothing is recorded; a photo not known yet keeps its
   * source URL (so the plan still sees the listing change) and is counted in `wouldFetch`.
   */
  dryRun?: boolean;
}

export interface PhotoHosting {
  /** Rewrites the Media of every record of a page to hosted photos (in place). */
  hostPage(records: ResoRecord[]): Promise<void>;
  counts(): PhotoCounts;
}

interface Photo {
  item: Record<string, unknown>;
  identity: string;
  url: string;
}

/** A photo's identity in the memory: its MediaKey with its modification stamp, or its URL when it has no key. */
export function photoIdentity(item: Readonly<Record<string, unknown>>, url: string): string {
  const key = item.MediaKey;
  const stamp = item.MediaModificationTimestamp ?? item.ModificationTimestamp;
  return typeof key === 'string' && key !== '' ? `k:${key}@${typeof stamp === 'string' ? stamp : ''}` : `u:${url}`;
}

/** The photos of a record's Media that Images would hold, in the Media's (already sorted) order. */
function photosOf(record: ResoRecord): Photo[] {
  const media = record[MEDIA_FIELD];
  if (!Array.isArray(media)) return [];
  const photos: Photo[] = [];
  for (const entry of media as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const item = entry as Record<string, unknown>;
    const url = item.MediaURL;
    if (typeof url !== 'string' || url.trim() === '' || !isPhotoItem(item)) continue;
    photos.push({ item, identity: photoIdentity(item, url.trim()), url: url.trim() });
  }
  return photos;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(not a URL)';
  }
}

export function photoHosting(options: PhotoHostingOptions): PhotoHosting {
  const counts = emptyPhotoCounts(options.dryRun === true);
  const limit = pLimit(Math.max(1, options.concurrency ?? 8));

  const fetchOne = (url: string): Promise<DownloadResult> =>
    limit(async (): Promise<DownloadResult> => {
      // Why ask before each download: the feed's media byte window (MLS Grid's 4 GB/h) must not be
      // passed; a photo left out is fetched by the next run, once the window has room again.
      if ((await options.budget?.bytesRoom?.()) === false) return { ok: false, reason: 'budget' };
      let received = 0;
      const result = await downloadPhoto(url, { ...options.download, onBytes: (bytes) => (received += bytes) });
      counts.bytes += received;
      await options.budget?.addBytes(received);
      return result;
    });

  /** Downloads what the memory does not know, a photo used twice in the page once. */
  const download = async (missing: readonly Photo[]): Promise<Map<string, DownloadResult>> => {
    const byIdentity = new Map<string, Promise<DownloadResult>>();
    for (const photo of missing) if (!byIdentity.has(photo.identity)) byIdentity.set(photo.identity, fetchOne(photo.url));
    const results = new Map<string, DownloadResult>();
    for (const [identity, pending] of byIdentity) results.set(identity, await pending);
    return results;
  };

  /** Fresh URLs of expired photos, read from their records' Media again; identity → URL. */
  const refreshed = async (expired: ReadonlyMap<string, Photo>, owners: ReadonlySet<string>): Promise<Map<string, string>> => {
    const urls = new Map<string, string>();
    if (options.refreshMedia === undefined || owners.size === 0) return urls;
    const media = await options.refreshMedia([...owners]);
    for (const items of media.values())
      for (const photo of photosOf({ [MEDIA_FIELD]: items })) {
        // Why by MediaKey alone: the fresh record may restamp the photo; its bytes are what the key names.
        const key = photo.item.MediaKey;
        for (const [identity, old] of expired) if (old.item.MediaKey === key && typeof key === 'string') urls.set(identity, photo.url);
      }
    return urls;
  };

  /** A dry run's page: known photos become their hosted URLs, the others are counted once and keep their source URL. */
  function planPage(photosByRecord: ReadonlyArray<{ record: ResoRecord; photos: Photo[] }>, known: ReadonlyMap<string, string>): void {
    const unknown = new Set<string>();
    for (const { record, photos } of photosByRecord) {
      const shown: unknown[] = [];
      for (const photo of photos) {
        const key = known.get(photo.identity);
        if (key !== undefined) counts.reused += 1;
        else unknown.add(photo.identity);
        shown.push(key === undefined ? photo.item : { ...photo.item, MediaURL: hostedUrl(options.baseUrl, key) });
      }
      if (MEDIA_FIELD in record) record[MEDIA_FIELD] = shown;
    }
    counts.wouldFetch = (counts.wouldFetch ?? 0) + unknown.size;
  }

  async function hostPage(records: ResoRecord[]): Promise<void> {
    const photosByRecord = records.map((record) => ({ record, photos: photosOf(record) }));
    const all = photosByRecord.flatMap(({ photos }) => photos);
    const known = await options.memory.recall([...new Set(all.map((photo) => photo.identity))]);
    if (options.dryRun === true) return planPage(photosByRecord, known);
    const missing = all.filter((photo) => !known.has(photo.identity));
    const results = await download(missing);
    const expired = new Map<string, Photo>();
    const owners = new Set<string>();
    for (const { record, photos } of photosByRecord)
      for (const photo of photos) {
        const result = results.get(photo.identity);
        if (result !== undefined && !result.ok && result.reason === 'expired') {
          expired.set(photo.identity, photo);
          const owner = record[KEY_FIELD];
          if (typeof owner === 'string') owners.add(owner);
        }
      }
    if (expired.size > 0) {
      const fresh = await refreshed(expired, owners);
      const again = await download([...fresh].map(([identity, url]) => ({ item: {}, identity, url })));
      for (const [identity, result] of again) {
        results.set(identity, result);
        if (result.ok) counts.refreshed += 1;
      }
    }
    const learned = new Map<string, string>();
    const references = new Map<string, string[]>();
    const pending: string[] = [];
    const complete: string[] = [];
    for (const { record, photos } of photosByRecord) {
      const hosted: unknown[] = [];
      const objects: string[] = [];
      let short = false;
      for (const photo of photos) {
        const result = results.get(photo.identity);
        const key = known.get(photo.identity) ?? (result?.ok === true ? result.key : undefined);
        if (key === undefined) {
          short = true;
          countFailure(counts, hostOf(photo.url), result !== undefined && !result.ok ? result.reason : 'connection');
          continue;
        }
        if (known.has(photo.identity)) counts.reused += 1;
        else {
          counts.hosted += 1;
          learned.set(photo.identity, key);
        }
        hosted.push({ ...photo.item, MediaURL: hostedUrl(options.baseUrl, key) });
        objects.push(key);
      }
      // Why the other Media items go: only photos become Images, and no source media URL may leave this step.
      if (MEDIA_FIELD in record) record[MEDIA_FIELD] = hosted;
      const listingKey = record[KEY_FIELD];
      if (typeof listingKey === 'string') {
        (short ? pending : complete).push(listingKey);
        if (MEDIA_FIELD in record) references.set(listingKey, objects);
      }
    }
    await options.memory.remember(learned);
    await options.memory.reference(references);
    await options.memory.markPending({ add: pending, done: complete });
  }

  return { hostPage, counts: () => counts };
}
