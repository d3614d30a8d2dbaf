/**
 * The photos a chatbot's listings show, as the photo memory records them per run (photo-memory.ts
 * `reference`: the chatbot's listing key (its MLSNumber or URL) → object keys in Order, comma-joined): what the dashboard's Photos page
 * reads. Bounded: at most `limit` listings, found by HSCAN, so a chatbot of 100,000 listings costs
 * a few round trips rather than one HGETALL of all of them.
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { scanHash } from './scan.js';

export interface ShownPhotos {
  /** Listings with at least one hosted photo, by ListingKey, at most `limit` of them, sorted by ListingKey. */
  listings: Array<{ listingKey: string; objects: string[] }>;
  /** Listings the chatbot's photo references name (with or without photos). */
  total: number;
}

export async function readShownPhotos(redis: RedisClient, keys: StoreKeys, chatbot: string, limit: number): Promise<ShownPhotos> {
  const key = keys.photoRefs(chatbot);
  // A Map: HSCAN may return a field twice.
  const found = new Map<string, string[]>();
  for await (const batch of scanHash(redis, key, 200)) {
    for (const [listingKey, joined] of batch) {
      const objects = joined.split(',').filter((object) => object !== '');
      if (objects.length > 0 && found.size < limit) found.set(listingKey, objects);
    }
    if (found.size >= limit) break;
  }
  const listings = [...found].map(([listingKey, objects]) => ({ listingKey, objects }));
  listings.sort((a, b) => a.listingKey.localeCompare(b.listingKey));
  return { listings, total: await redis.hlen(key) };
}
