/**
 * Finds a Redis for `listing-sync demo`: REDIS_URL, else 127.0.0.1:6379, else a `redis-server`
 * from PATH on a free port for the demo's lifetime, else one line saying how to get one.
 */
import { ListingSyncError } from '../errors.js';
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
    throw new ListingSyncError('REDIS_UNAVAILABLE', 'REDIS_URL is set but Redis does not answer there: start it, or unset REDIS_URL to let the demo find or start one');
  }
  const local = 'redis://127.0.0.1:6379';
  if (await redisAnswers(local)) return { url: local, origin: '127.0.0.1:6379', stop: async () => {} };
  const started = await startLocalRedisServer();
  if (started) return { ...started, origin: `redis-server started on ${started.url} for this demo` };
  throw new ListingSyncError('REDIS_UNAVAILABLE', 'the demo needs Redis: install it (apt-get install redis-server, or brew install redis) or set REDIS_URL to one that answers');
}
