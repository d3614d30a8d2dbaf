/**
 * Finds a Redis for `listing-sync demo`: REDIS_URL, else 127.0.0.1:6379, else a `redis-server`
 * from PATH on a free port for the demo's lifetime, else one line saying how to get one.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { ListingSyncError } from '../errors.js';

export interface DemoRedis {
  url: string;
  /** Where it came from, for the demo's banner. */
  origin: string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => {}); // "connection refused" is an answer here, not a failure
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startRedisServer(): Promise<DemoRedis | undefined> {
  const port = await freePort();
  // Bound to loopback and without persistence: this Redis lives and dies with the demo.
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => resolve(true));
  });
  if (!spawned) return undefined;
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i += 1) {
    if (await answers(url)) {
      return { url, origin: `redis-server started on port ${port} for this demo`, stop: async () => void child.kill('SIGTERM') };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  return undefined;
}

export async function findDemoRedis(env: Readonly<Record<string, string | undefined>>): Promise<DemoRedis> {
  const fromEnv = env.REDIS_URL?.trim();
  if (fromEnv) {
    if (await answers(fromEnv)) return { url: fromEnv, origin: 'REDIS_URL', stop: async () => {} };
    throw new ListingSyncError('REDIS_UNAVAILABLE', 'REDIS_URL is set but Redis does not answer there: start it, or unset REDIS_URL to let the demo find or start one');
  }
  const local = 'redis://127.0.0.1:6379';
  if (await answers(local)) return { url: local, origin: '127.0.0.1:6379', stop: async () => {} };
  const started = await startRedisServer();
  if (started) return started;
  throw new ListingSyncError('REDIS_UNAVAILABLE', 'the demo needs Redis: install it (apt-get install redis-server, or brew install redis) or set REDIS_URL to one that answers');
}
