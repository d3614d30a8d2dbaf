/**
 * Finds a Redis for tests, in the order the design fixes: REDIS_URL; else testcontainers' Redis
 * when a Docker engine answers; else a `redis-server` from PATH on a free port (bound to 127.0.0.1).
 * Each test isolates itself with its own BullMQ prefix (see uniquePrefix) and cleans it on pass.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { startLocalRedisServer } from '../../src/cli/wiring/local-redis.js';

export interface ResolvedRedis {
  url: string;
  source: 'env' | 'testcontainers' | 'redis-server';
  stop(): Promise<void>;
}

async function tryTestcontainers(): Promise<ResolvedRedis | undefined> {
  try {
    const { RedisContainer } = await import('@testcontainers/redis');
    const container = await new RedisContainer('redis:7-alpine').start();
    return { url: container.getConnectionUrl(), source: 'testcontainers', stop: async () => void (await container.stop()) };
  } catch {
    return undefined; // no Docker engine here: "Could not find a working container runtime strategy"
  }
}

export async function resolveRedis(env: NodeJS.ProcessEnv = process.env): Promise<ResolvedRedis> {
  const fromEnv = env.REDIS_URL?.trim();
  if (fromEnv) return { url: fromEnv, source: 'env', stop: async () => {} };
  const container = await tryTestcontainers();
  if (container) return container;
  const started = await startLocalRedisServer();
  if (started) return { ...started, source: 'redis-server' };
  throw new Error('No Redis for the tests: set REDIS_URL, run a Docker engine, or install redis-server');
}

/** A BullMQ prefix no other test (or person) uses. */
export function uniquePrefix(label = 't'): string {
  return `lstest-${label}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under a prefix (SCAN, never KEYS). */
export async function cleanPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
