/**
 * Finds a Redis for tests, in the order the design fixes: REDIS_URL; else testcontainers' Redis
 * when a Docker engine answers; else a `redis-server` from PATH on a free port (bound to 127.0.0.1).
 * Each test isolates itself with its own BullMQ prefix (see uniquePrefix) and cleans it on pass.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface ResolvedRedis {
  url: string;
  source: 'env' | 'testcontainers' | 'redis-server';
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function ping(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null });
  client.on('error', () => {}); // a refused connection while redis-server starts is expected
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
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

async function startRedisServer(): Promise<ResolvedRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i += 1) {
    if (await ping(url, 200)) return { url, source: 'redis-server', stop: async () => void child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('Could not start redis-server from PATH: install redis-server or set REDIS_URL');
}

export async function resolveRedis(env: NodeJS.ProcessEnv = process.env): Promise<ResolvedRedis> {
  const fromEnv = env.REDIS_URL?.trim();
  if (fromEnv) return { url: fromEnv, source: 'env', stop: async () => {} };
  const container = await tryTestcontainers();
  if (container) return container;
  return await startRedisServer();
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
