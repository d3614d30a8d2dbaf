/**
 * The Redis of `listing-sync demo`: REDIS_URL, else 127.0.0.1:6379, else a `redis-server` from
 * PATH on a free port for the demo's lifetime, else one line saying how to get one; and the
 * demo's own prefix cleaned before each demo.
 */
import { ListingSyncError } from '../errors.js';
import { closeConnection, connectProducer, createProducerConnection } from '../queue/connection.js';
import { redisAnswers, startLocalRedisServer } from './local-redis.js';

export interface DemoRedis {
  url: string;
  /** Where it came from, for the demo's banner. */
  origin: string;
  stop(): Promise<void>;
}

export async function findDemoRedis(env: Readonly<Record<string, string | undefined>>): Promise<DemoRedis> {
  const fromEnv = env.REDIS_URL?.trim();
  if (fromEnv) {
    if (await redisAnswers(fromEnv)) return { url: fromEnv, origin: 'REDIS_URL', stop: async () => {} };
    throw new ListingSyncError(
      'REDIS_UNAVAILABLE',
      'REDIS_URL is set but Redis does not answer there: start it, or unset REDIS_URL to let the demo find or start one',
    );
  }
  const local = 'redis://127.0.0.1:6379';
  if (await redisAnswers(local)) return { url: local, origin: '127.0.0.1:6379', stop: async () => {} };
  const started = await startLocalRedisServer();
  if (started) return { ...started, origin: `redis-server started on ${started.url} for this demo` };
  throw new ListingSyncError(
    'REDIS_UNAVAILABLE',
    'the demo needs Redis: install it (apt-get install redis-server, or brew install redis) or set REDIS_URL to one that answers',
  );
}

/** Deletes every key under the demo's own prefix so each demo starts from nothing (SCAN, never KEYS). */
export async function cleanDemoPrefix(url: string, prefix: string): Promise<void> {
  const redis = createProducerConnection(url);
  try {
    await connectProducer(redis);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await closeConnection(redis);
  }
}
