/**
 * The applied fleet (`fleet apply`): one JSON value under `{p}:ls:fleet`, so that `fleet show`
 * prints it and a later apply knows which chatbots, sources and alerts the fleet owns. Opaque
 * here: the fleet's own reader (src/fleet) checks it where it is used. One key, single-key
 * commands: the same on one Redis and on a Redis Cluster.
 */
import type { RedisClient } from './redis-client.js';

export class FleetRecordStore {
  private readonly key: string;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.key = `${prefix}:ls:fleet`;
  }

  /** The stored value, or undefined when no fleet was applied (or the value is not JSON). */
  async read(): Promise<unknown> {
    const text = await this.redis.get(this.key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  async write(fleet: unknown): Promise<void> {
    await this.redis.set(this.key, JSON.stringify(fleet));
  }
}
