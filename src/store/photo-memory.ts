/**
 * The photo memory: what each source photo became in the media store, per feed source, so a
 * photo seen again costs no download. A RESO photo is known by (MediaKey, its modification
 * timestamp), a file feed's by its URL (the caller builds the identity). Shared by every chatbot
 * of the source: one download serves every chatbot that shows the listing.
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';

export class PhotoMemory {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: StoreKeys,
  ) {}

  /** The object keys known for `identities` (those not known are absent from the map). */
  async recall(feedId: string, identities: readonly string[]): Promise<Map<string, string>> {
    const known = new Map<string, string>();
    if (identities.length === 0) return known;
    const values = await this.redis.hmget(this.keys.photoMemory(feedId), ...identities);
    identities.forEach((identity, index) => {
      const key = values[index];
      if (typeof key === 'string' && key !== '') known.set(identity, key);
    });
    return known;
  }

  /** Records what photos became. */
  async remember(feedId: string, learned: ReadonlyMap<string, string>): Promise<void> {
    if (learned.size === 0) return;
    await this.redis.hset(this.keys.photoMemory(feedId), Object.fromEntries(learned));
  }

  /** Every object key the source's photos became (media gc keeps these while a listing may show them). */
  async objectKeys(feedId: string): Promise<Set<string>> {
    return new Set(Object.values(await this.redis.hgetall(this.keys.photoMemory(feedId))));
  }

  /** ListingKeys of (chatbot, feed) whose photos are not all hosted yet. */
  async pending(chatbot: string, feedId: string): Promise<string[]> {
    return this.redis.smembers(this.keys.photosPending(chatbot, feedId));
  }

  /** Marks listings as still missing photos (`add`) or complete (`done`). */
  async markPending(chatbot: string, feedId: string, change: { add: readonly string[]; done: readonly string[] }): Promise<void> {
    const key = this.keys.photosPending(chatbot, feedId);
    const batch = this.redis.multi();
    if (change.done.length > 0) batch.srem(key, ...change.done);
    if (change.add.length > 0) batch.sadd(key, ...change.add);
    if (change.add.length + change.done.length > 0) await batch.exec();
  }
}
