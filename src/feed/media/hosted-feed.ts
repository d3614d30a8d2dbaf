/**
 * A file feed (CSV with an image column, a RESO Data Dictionary JSON file, any mapped feed) whose
 * listings come with their photos hosted: each listing's Images, in their order, become
 * `<base>/<object key>` through the same hosting step as a replicated page (photo-hosting.ts).
 * A file photo has no MediaKey, so it is known by its URL: an unchanged URL costs no download.
 * Rows are hosted in batches (downloads of a batch run together) and passed on in file order.
 */
import type { FeedRow, OpenFeed } from '../feed-types.js';
import type { ResoRecord } from '../reso-api/types.js';
import { MEDIA_FIELD } from '../reso-api/media.js';
import { DD_FIELDS } from '../reso-api/replication-fields.js';
import type { PhotoHosting } from './photo-hosting.js';

/** The hosting of one file-feed sync, and the store it holds open. */
export interface FeedPhotos {
  hosting: PhotoHosting;
  /** Forgets the photos the listings deleted by this run showed (media gc may then remove them). */
  forget(listingKeys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listings hosted at once. Why 100: enough downloads in flight to keep the hosting's concurrency
 * busy, while the rows held back stay a few hundred KiB (the planner's own waiting list is 4096).
 */
const BATCH_ROWS = 100;

type ListingRow = Extract<FeedRow, { kind: 'listing' }>;

/** The listing rows of a batch as records whose Media are their Images (no Images: no Media, nothing recorded). */
function recordsOf(rows: readonly ListingRow[]): ResoRecord[] {
  return rows.map((row) => {
    const images = row.listing.Images;
    const record: ResoRecord = { [DD_FIELDS.key]: row.key };
    if (Array.isArray(images)) record[MEDIA_FIELD] = images.map((url) => ({ MediaURL: url }));
    return record;
  });
}

/** Puts the hosted URLs back into each listing's Images, in their order. */
function writeBack(rows: readonly ListingRow[], records: readonly ResoRecord[]): void {
  rows.forEach((row, index) => {
    const media = records[index]?.[MEDIA_FIELD];
    if (!Array.isArray(media)) return;
    row.listing.Images = (media as Array<{ MediaURL?: unknown }>).flatMap((item) =>
      typeof item.MediaURL === 'string' ? [item.MediaURL] : [],
    );
  });
}

export function hostedFeed(feed: OpenFeed, hosting: PhotoHosting, batchRows = BATCH_ROWS): OpenFeed {
  async function* rows(): AsyncGenerator<FeedRow, void, undefined> {
    let held: FeedRow[] = [];
    let listings: ListingRow[] = [];
    const flush = async (): Promise<FeedRow[]> => {
      if (listings.length > 0) {
        const records = recordsOf(listings);
        await hosting.hostPage(records);
        writeBack(listings, records);
      }
      const out = held;
      held = [];
      listings = [];
      return out;
    };
    for await (const row of feed.rows) {
      held.push(row);
      if (row.kind === 'listing' && row.listing.Images !== undefined) listings.push(row);
      if (listings.length >= batchRows) yield* await flush();
    }
    yield* await flush();
  }
  return {
    rows: rows(),
    stats: () => feed.stats(),
    progress: () => feed.progress(),
    readIn: feed.readIn,
    ...(feed.header === undefined ? {} : { header: feed.header }),
    shape: () => feed.shape(),
  };
}
