/**
 * A RESO server's `$metadata` and lookups, read at a source's first replication and kept a day
 * in Redis per service root (store/feed-metadata.ts): every process and every run of the day
 * uses the kept copy and spends no request on it. A server without `$metadata` is kept as such
 * ("none") for the same day. A failed read keeps nothing, so the next run asks again.
 */
import { serviceRootOf, sourceMetadataSchema, type SourceMetadata } from '../feed/reso-api/source-metadata.js';
import type { FeedMetadataStore } from '../store/feed-metadata.js';
import { stableFeedId } from '../store/feed-sources.js';
import type { MetadataRead } from './replication-types.js';

/** Why a day: a server's fields and lookups change with a Data Dictionary release, months apart; a nightly run reads them at most once. */
export const METADATA_KEPT_SECONDS = 24 * 3600;

/** The id a feed's metadata is kept under: its service root's hash (no credentials, no query). */
export function metadataRootId(feedUrl: string): string {
  return stableFeedId(serviceRootOf(feedUrl));
}

/** The metadata without what reading it cost. */
export function sourceOf(read: MetadataRead): SourceMetadata {
  return {
    ...(read.metadata === undefined ? {} : { metadata: read.metadata }),
    ...(read.lookups === undefined ? {} : { lookups: read.lookups }),
  };
}

/** The kept metadata of `feedUrl`'s service root, or `read()`'s (kept for the next runs). */
export async function keptMetadata(
  keep: Pick<FeedMetadataStore, 'read' | 'write'>,
  feedUrl: string,
  read: () => Promise<MetadataRead>,
  now: () => number = Date.now,
): Promise<MetadataRead> {
  const rootId = metadataRootId(feedUrl);
  const kept = await keep.read(rootId);
  const parsed = kept === undefined ? undefined : sourceMetadataSchema.safeParse(kept.value);
  if (parsed?.success === true) return { ...parsed.data, requests: 0, bytes: 0 };
  const fresh = await read();
  await keep.write(rootId, { fetchedAt: new Date(now()).toISOString(), value: sourceOf(fresh) }, METADATA_KEPT_SECONDS);
  return fresh;
}
