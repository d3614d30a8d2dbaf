/**
 * A `redis-server` of a test's own, with AOF (`appendfsync everysec`) in its own directory, on a
 * fixed loopback port, that the test can shut down cleanly, kill with SIGKILL and start again on
 * the same port and data: the operational accidents the chaos tests put every long-lived command
 * through. Skip such a test (with the reason) when no `redis-server` is on PATH.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, redisAnswers } from '../../src/cli/wiring/local-redis.js';

export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** `SHUTDOWN` (AOF flushed), as an orderly restart does; resolves once the process exited. */
  shutdown(): Promise<void>;
  /** SIGKILL: up to the last second of writes may be lost (appendfsync everysec). */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory; resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its directory. */
  close(): Promise<void>;
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface RedisProcessOptions {
  /**
   * More redis-server arguments, after the defaults so they win: e.g. `['--maxmemory-policy',
   * 'allkeys-lru', '--appendonly', 'no']` for a badly configured Redis.
   */
  args?: readonly string[];
  /** Sets `requirepass`; the `url` then carries it (`redis://:password@…`). */
  password?: string;
}

/** Starts a persistent redis-server (AOF everysec, noeviction, unless `options` say otherwise) on a free loopback port. */
export async function startRedisProcess(options: RedisProcessOptions = {}): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ls-redis-'));
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  const url = `redis://${auth}127.0.0.1:${port}`;
  const extra = [...(options.password === undefined ? [] : ['--requirepass', options.password]), ...(options.args ?? [])];
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      ...extra,
    ];
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    child = started;
    for (let i = 0; i < 100; i += 1) {
      if (await redisAnswers(url, 200)) return;
      if (started.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server on port ${port} did not answer`);
  }

  async function stopWith(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const running = child;
    if (running === undefined) return;
    child = undefined;
    const gone = exited(running);
    running.kill(signal); // SIGTERM makes redis-server shut down as SHUTDOWN does (AOF flushed)
    await gone;
  }

  await start();
  return {
    url,
    port,
    dir,
    shutdown: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
    start,
    async close() {
      await stopWith('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
