/**
 * Redis connections for the queue. Two kinds, on purpose:
 * - workers block on Redis and must survive a Redis restart, so `maxRetriesPerRequest: null`
 *   (BullMQ requires it) and commands wait for the reconnect;
 * - producers (the CLI enqueueing, listing runs) fail fast: a down Redis should be one clear
 *   error line, not a CLI that hangs.
 * Whoever calls these owns the connection and must `quit()` it: BullMQ does not close
 * connections it was given. Keys are isolated with BullMQ's `prefix`, never ioredis keyPrefix
 * (BullMQ's Lua scripts build key names themselves and would escape a keyPrefix).
 */
import { Redis } from 'ioredis';
import { ListingSyncError } from '../errors.js';
import type { Logger } from '../logger.js';

export interface RedisSettings {
  url: string;
  /** The BullMQ prefix; the store's keys live under it too. */
  prefix: string;
}

/** A connection for workers (blocking commands, waits through reconnects). */
export function createWorkerConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/**
 * A connection for producers and readers (short-lived CLI commands): fails fast when Redis is
 * unreachable — no reconnect loop, no offline queue — instead of hanging.
 */
export function createProducerConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 3000, lazyConnect: true, retryStrategy: () => null });
  // Why a no-op listener: the failure is reported once by connectProducer; without a listener
  // ioredis prints every connection error to stderr as "Unhandled error event".
  redis.on('error', () => undefined);
  return redis;
}

/** Connects a lazily-connecting producer connection, turning a refusal into one clear error. */
export async function connectProducer(redis: Redis): Promise<Redis> {
  if (redis.status !== 'wait') return redis;
  try {
    await redis.connect();
  } catch (thrown) {
    redis.disconnect();
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    throw new ListingSyncError('REDIS_UNAVAILABLE', `cannot reach Redis (${reason}): check REDIS_URL and that Redis is running`, { cause: thrown });
  }
  return redis;
}

/**
 * Warns when Redis may evict keys: BullMQ jobs and our ledger are data, and an eviction policy
 * other than noeviction silently loses them under memory pressure. Hosted Redis often disables
 * CONFIG; that is tolerated (debug line only).
 */
export async function checkEvictionPolicy(redis: Redis, logger: Logger): Promise<string | undefined> {
  try {
    const reply = (await redis.call('CONFIG', 'GET', 'maxmemory-policy')) as unknown;
    const policy = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
    if (policy !== undefined && policy !== 'noeviction') {
      logger.warn({ policy }, `Redis maxmemory-policy is ${policy}: set it to noeviction, or Redis may evict queued jobs and ledger entries under memory pressure`);
    }
    return policy;
  } catch (thrown) {
    logger.debug({ err: thrown instanceof Error ? thrown.message : String(thrown) }, 'could not read Redis maxmemory-policy (CONFIG disabled?)');
    return undefined;
  }
}
