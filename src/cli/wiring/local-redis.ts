/**
 * A Redis on this machine for the demo and the tests: does one answer at a URL, and start a
 * throw-away `redis-server` from PATH on a free loopback port.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface LocalRedis {
  url: string;
  stop(): Promise<void>;
}

/** True when Redis at `url` answers PING within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
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

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts `redis-server` from PATH on a free port, bound to loopback and without persistence (it
 * lives and dies with its caller). Undefined when there is no binary or it does not answer.
 */
export async function startLocalRedisServer(): Promise<LocalRedis | undefined> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => resolve(true));
  });
  if (!spawned) return undefined;
  // Why on 'exit' too: a caller that dies of an error (a closed stderr pipe) or calls process.exit
  // never runs its release stack, and the server it started must not outlive it.
  const onExit = (): void => void child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = (): Promise<void> => {
    process.removeListener('exit', onExit);
    return Promise.resolve(void child.kill('SIGTERM'));
  };
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i += 1) {
    if (await redisAnswers(url, 200)) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  process.removeListener('exit', onExit);
  child.kill('SIGKILL');
  return undefined;
}
