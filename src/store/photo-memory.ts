/**
 * The photo memory: what each source photo became in the media store, per feed source, so a
 * photo seen again costs no download. A RESO photo is known by (MediaKey, its modification
 * timestamp), a file feed's by its URL (the caller builds the identity). Shared by every chatbot
 * of the source: one download serves every chatbot that shows the listing.
 */
import type { RedisClient } from './redis-client.js';
import type { StoreKeys } from './keys.js';
import { scanHash, scanKeys, startsWithPattern } from './scan.js';

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

  /**
   * Records the objects each listing of `chatbot` shows now (an empty list: none), by the chatbot's
   * listing key: the key its planned deletes carry, so `unreference` of a delete forgets them.
   */
  async reference(chatbot: string, listings: ReadonlyMap<string, readonly string[]>): Promise<void> {
    if (listings.size === 0) return;
    const fields = Object.fromEntries([...listings].map(([listing, keys]) => [listing, keys.join(',')]));
    await this.redis.hset(this.keys.photoRefs(chatbot), fields);
  }

  /** Forgets what `listings` of `chatbot` show (deleted listings: their objects may go once no other listing shows them). */
  async unreference(chatbot: string, listings: readonly string[]): Promise<void> {
    // Why in chunks: one HDEL of a whole feed's deletes would be one huge command.
    for (let i = 0; i < listings.length; i += 1000) await this.redis.hdel(this.keys.photoRefs(chatbot), ...listings.slice(i, i + 1000));
  }

  /** Every object key some listing of some chatbot shows. */
  async referenced(): Promise<Set<string>> {
    const keys = new Set<string>();
    for await (const batch of scanKeys(this.redis, startsWithPattern(this.keys.photoRefsHead())))
      for (const hash of batch)
        for await (const pairs of scanHash(this.redis, hash))
          for (const [, value] of pairs) for (const key of value.split(',')) if (key !== '') keys.add(key);
    return keys;
  }

  /** When each object was first found unreferenced (media gc's grace period runs from then). */
  async orphans(): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for await (const pairs of scanHash(this.redis, this.keys.photoOrphans())) for (const [key, at] of pairs) found.set(key, Number(at));
    return found;
  }

  /** Marks objects unreferenced since `atMs` (`found`), or referenced again / removed (`cleared`). */
  async markOrphans(found: readonly string[], atMs: number, cleared: readonly string[]): Promise<void> {
    const key = this.keys.photoOrphans();
    const batch = this.redis.multi();
    if (cleared.length > 0) batch.hdel(key, ...cleared);
    for (const object of found) batch.hsetnx(key, object, String(atMs));
    if (cleared.length + found.length > 0) await batch.exec();
  }

  /** Forgets every photo that became one of `removed` (so a later run downloads it again rather than link a removed object). */
  async forgetObjects(removed: ReadonlySet<string>): Promise<number> {
    let forgotten = 0;
    if (removed.size === 0) return 0;
    for await (const batch of scanKeys(this.redis, startsWithPattern(this.keys.photoMemoryHead())))
      for (const hash of batch)
        for await (const pairs of scanHash(this.redis, hash)) {
          const stale = pairs.filter(([, object]) => removed.has(object)).map(([identity]) => identity);
          if (stale.length > 0) forgotten += await this.redis.hdel(hash, ...stale);
        }
    return forgotten;
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
