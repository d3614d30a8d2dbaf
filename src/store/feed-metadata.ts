/**
 * What a RESO server published about itself (`$metadata`, its Lookup resource, or that it has
 * none), kept per service root for every process of the installation (keys.ts `feedMetadata`):
 * a second process, or the next nightly run, does not read it again. The value is the feed
 * side's (src/feed/reso-api/source-metadata.ts checks it); here it is a JSON string with the time
 * it was fetched and a TTL. Read leniently: a record that is not JSON counts as none.
 */
import type { StoreKeys } from './keys.js';
import type { RedisClient } from './redis-client.js';

export interface KeptFeedMetadata {
  /** ISO 8601: when the server was read. */
  fetchedAt: string;
  value: unknown;
}

export class FeedMetadataStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** The record of a service root (`rootId`: a stable hash), or undefined when none is kept (or it cannot be read). */
  async read(rootId: string): Promise<KeptFeedMetadata | undefined> {
    const text = await this.redis.get(this.keys.feedMetadata(rootId));
    if (text === null) return undefined;
    try {
      const parsed = JSON.parse(text) as { fetchedAt?: unknown; value?: unknown };
      return typeof parsed.fetchedAt === 'string' ? { fetchedAt: parsed.fetchedAt, value: parsed.value } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `value` for `ttlSeconds`, replacing what was kept. */
  async write(rootId: string, kept: KeptFeedMetadata, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.keys.feedMetadata(rootId), JSON.stringify(kept), 'EX', ttlSeconds);
  }
}
