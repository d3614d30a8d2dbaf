/**
 * A replicated feed whose listings record the hosted objects they show, keyed by the chatbot's
 * listing key (the row's key: the key the plan creates, updates and deletes by). Why at the row
 * and not the record: only a row the display rules and the chatbot's filter let through becomes a
 * listing, and its key is known only once the record is mapped (ListingId, not the ListingKey), so
 * a planned delete (`PlannedDelete.key`) forgets exactly what the listing recorded.
 */
import type { FeedRow, OpenFeed } from '../feed-types.js';
import { isObjectKey } from './object-key.js';

/** Listings whose references are written at once (one HSET). */
const BATCH_ROWS = 500;

/** The object keys of a listing's hosted Images (those under `baseUrl`), in order. */
export function objectsOf(images: readonly string[], baseUrl: string): string[] {
  const head = `${baseUrl.replace(/\/+$/, '')}/`;
  return images.flatMap((url) => {
    const key = url.startsWith(head) ? url.slice(head.length) : '';
    return isObjectKey(key) ? [key] : [];
  });
}

export function referencedFeed(
  feed: OpenFeed,
  baseUrl: string,
  reference: (listings: ReadonlyMap<string, readonly string[]>) => Promise<void>,
): OpenFeed {
  async function* rows(): AsyncGenerator<FeedRow, void, undefined> {
    let batch = new Map<string, string[]>();
    for await (const row of feed.rows) {
      // A listing without Images says nothing about its photos: what it recorded before stays.
      if (row.kind === 'listing' && Array.isArray(row.listing.Images)) batch.set(row.key, objectsOf(row.listing.Images, baseUrl));
      if (batch.size >= BATCH_ROWS) {
        await reference(batch);
        batch = new Map();
      }
      yield row;
    }
    await reference(batch);
  }
  return { ...feed, rows: rows(), stats: () => feed.stats(), progress: () => feed.progress(), shape: () => feed.shape() };
}
