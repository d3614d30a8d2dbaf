/**
 * The Redis of `listing-sync demo`: REDIS_CLUSTER_NODES, else REDIS_URL, else 127.0.0.1:6379,
 * else a `redis-server` from PATH on a free port for the demo's lifetime (at once with
 * --own-redis), else one line saying how to get one; and the demo's own prefix cleaned before each demo.
 */
import { z } from 'zod';
import { ListingSyncError } from '../../shared/errors.js';
import { closeConnection, connectProducer, createProducerConnection, type RedisTarget } from '../../queue/connection.js';
import { parseClusterNodes } from '../../config/redis-cluster-config.js';
import { scanKeys, startsWithPattern } from '../../store/scan.js';
import { redisAnswers, startLocalRedisServer } from '../wiring/local-redis.js';

export interface DemoRedis extends RedisTarget {
  /** Where it came from, for the demo's banner. */
  origin: string;
  stop(): Promise<void>;
}

/** The cluster REDIS_CLUSTER_NODES names, if it answers (a bad value is one clear error). */
async function demoCluster(text: string): Promise<DemoRedis> {
  const parsed = z.string().transform(parseClusterNodes).safeParse(text);
  if (!parsed.success) {
    throw new ListingSyncError('CONFIG', `REDIS_CLUSTER_NODES ${parsed.error.issues[0]?.message ?? 'is not a node list'}`);
  }
  const target = { url: 'redis://127.0.0.1:6379', cluster: parsed.data };
  const redis = createProducerConnection(target);
  try {
    await connectProducer(redis);
  } finally {
    await closeConnection(redis);
  }
  return { ...target, origin: 'REDIS_CLUSTER_NODES', stop: async () => {} };
}

/** A redis-server of the demo's own (`--own-redis`), stopped with the demo. */
async function ownRedis(): Promise<DemoRedis> {
  const started = await startLocalRedisServer();
  if (started) return { ...started, origin: `redis-server started on ${started.url} for this demo` };
  throw new ListingSyncError(
    'REDIS_UNAVAILABLE',
    '--own-redis: no redis-server on PATH answered: install it (apt-get install redis-server, or brew install redis), ' +
      'or leave --own-redis out',
  );
}

export async function findDemoRedis(env: Readonly<Record<string, string | undefined>>, own = false): Promise<DemoRedis> {
  if (own) return await ownRedis();
  const cluster = env.REDIS_CLUSTER_NODES?.trim();
  if (cluster) return await demoCluster(cluster);
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
export async function cleanDemoPrefix(target: RedisTarget, prefix: string): Promise<void> {
  const redis = createProducerConnection(target);
  try {
    await connectProducer(redis);
    // One DEL per key: on a cluster the keys of one SCAN batch are in many slots.
    for await (const keys of scanKeys(redis, startsWithPattern(`${prefix}:`))) await Promise.all(keys.map((key) => redis.del(key)));
  } finally {
    await closeConnection(redis);
  }
}
