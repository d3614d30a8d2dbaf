/**
 * Two demos side by side (the built CLI as processes, a Redis of their own): each under its own
 * LISTING_SYNC_PREFIX, the second cleans only its own prefix and keeps the first's runs and any
 * other data; a dashboard port in use is one line naming --port before any work; a prefix
 * without 'demo' in its name is refused (the demo wipes its prefix first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { CLI_ENTRY, runCli } from '../helpers/run-cli.js';

let redis: RedisProcess | undefined;
let first: ChildProcess | undefined;
let blocker: Server | undefined;

afterEach(async () => {
  if (first && first.exitCode === null) first.kill('SIGKILL');
  first = undefined;
  await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
  blocker = undefined;
  await redis?.close();
  redis = undefined;
});

const envOf = (url: string, prefix: string): Record<string, string> => ({
  HOME: process.env.HOME ?? '/tmp',
  REDIS_URL: url,
  LISTING_SYNC_PREFIX: prefix,
});

async function keysUnder(url: string, prefix: string): Promise<number> {
  const client = new Redis(url);
  try {
    return (await client.keys(`${prefix}:*`)).length;
  } finally {
    client.disconnect();
  }
}

describe.skipIf(!hasRedisServer())('demos side by side', () => {
  it('two prefixes: the second demo keeps the first one’s data and other keys; both end well', async () => {
    redis = await startRedisProcess({ args: ['--appendonly', 'no'] });
    const url = redis.url;
    const other = new Redis(url);
    await other.set('someone-else:keep', '1');
    other.disconnect();

    // The first demo stays up with its dashboard on a free port.
    const child = spawn(process.execPath, [CLI_ENTRY, 'demo', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '', ...envOf(url, 'demo-one') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    first = child;
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the first demo did not reach its dashboard:\n${out}`)), 90_000);
      child.stdout.on('data', () => {
        if (out.includes('dashboard: http://127.0.0.1:')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const firstKeys = await keysUnder(url, 'demo-one');
    expect(firstKeys).toBeGreaterThan(0);

    const second = await runCli(['demo', '--exit-after-sync'], envOf(url, 'demo-two'), 90_000);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('BullMQ prefix demo-two, cleaned first');
    expect(await keysUnder(url, 'demo-one')).toBeGreaterThanOrEqual(firstKeys);
    const check = new Redis(url);
    expect(await check.get('someone-else:keep')).toBe('1');
    check.disconnect();
    const runs = await runCli(['runs', 'list', '--json'], envOf(url, 'demo-one'));
    expect(runs.stdout).toContain('demo-bot');

    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
  }, 240_000);

  it('a dashboard port in use is one line naming --port, before any work; a prefix without demo is refused', async () => {
    redis = await startRedisProcess({ args: ['--appendonly', 'no'] });
    const server = createServer();
    blocker = server;
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      }),
    );
    const taken = await runCli(['demo', '--port', String(port)], envOf(redis.url, 'demo-port'), 30_000);
    expect(taken.code).toBe(2);
    expect(taken.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`port ${port} .*in use.*--port N, or --port 0`))]);
    expect(await keysUnder(redis.url, 'demo-port')).toBe(0);

    const wrong = await runCli(['demo', '--exit-after-sync'], envOf(redis.url, 'listing-sync'), 30_000);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/LISTING_SYNC_PREFIX=listing-sync: the demo deletes every key under its prefix first/);
  }, 90_000);
});
