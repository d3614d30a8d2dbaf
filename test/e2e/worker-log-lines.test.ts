/**
 * `listing-sync worker`'s log lines as an operator reads them: on a terminal (a pseudo-terminal
 * from util-linux `script`) and with LOG_FORMAT=pretty, `HH:MM:SS LEVEL message (fields)`, never
 * pino's JSON with epoch-millisecond times; without a terminal, and with LOG_FORMAT=json, one JSON
 * object per line for log collectors.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { CLI_ENTRY } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const READABLE = /^\d\d:\d\d:\d\d INFO {2}workers started \(concurrency=2\)$/m;
const hasScript = spawnSync('script', ['--version']).status === 0;

let worker: CliProcess | undefined;
let prefix = '';
afterEach(async () => {
  await worker?.kill();
  worker = undefined;
  await cleanPrefix(redisUrl, prefix);
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  prefix = uniquePrefix('worker-logs');
  // The service is never called: the worker only starts and stops.
  return {
    API_BASE_URL: 'http://127.0.0.1:9',
    API_SECRET_KEY: 'worker-logs-secret',
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
    ...extra,
  };
}

describe('worker log lines', () => {
  it('are readable lines with LOG_FORMAT=pretty, and JSON by default when stderr is not a terminal', async () => {
    worker = startCli(['worker', '--concurrency', '2'], env({ LOG_FORMAT: 'pretty' }));
    await worker.waitFor(/workers started/);
    expect(worker.stderr()).toMatch(READABLE);
    expect(worker.stderr()).not.toContain('{"level"');
    expect((await worker.stop()).code).toBe(0);

    worker = startCli(['worker', '--concurrency', '2'], env());
    await worker.waitFor(/workers started/);
    const first = JSON.parse(worker.stderr().split('\n')[0] ?? '') as Record<string, unknown>;
    expect(first).toMatchObject({ level: 30, msg: 'workers started', concurrency: 2 });
    expect((await worker.stop()).code).toBe(0);
  });

  it('refuse a LOG_FORMAT they do not know, naming it (exit 2)', async () => {
    worker = startCli(['worker'], env({ LOG_FORMAT: 'yaml' }));
    expect(await worker.exited()).toBe(2);
    expect(worker.stderr()).toContain("LOG_FORMAT must be json or pretty (got 'yaml')");
  });

  it.skipIf(!hasScript)('are readable lines on a terminal', async () => {
    const vars = env();
    const assignments = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
    const command = ['env', ...assignments, process.execPath, CLI_ENTRY, 'worker', '--concurrency', '2'].join(' ');
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      const end = Date.now() + 30_000;
      while (!/workers started/.test(seen) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen.replace(/\r/g, '')).toMatch(READABLE);
      expect(seen).not.toContain('{"level"');
      child.stdin.write('\x03'); // Ctrl-C, as a person stops it
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
  });
});
