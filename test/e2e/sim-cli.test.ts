/**
 * `listing-sync sim` as a process: it prints where it listens and the `export` lines that point
 * the CLI at it (pasted into a second process, a read and a dry-run sync work), answers a request
 * with the credentials from the env, never prints those, and exits 0 on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, inject, it } from 'vitest';
import { request } from 'undici';
import { looseEnvelopeSchema } from '../../src/api/schemas.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { bin: Record<string, string> };
const entry = `${root}${pkg.bin['listing-sync'] ?? ''}`;

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

function firstLine(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!proc.stdout) return reject(new Error('no stdout'));
    createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`sim exited early with ${String(code)}`)));
  });
}

it('runs until SIGTERM, serves the endpoints with the env credentials, and exits 0', async () => {
  const env = { ...process.env, API_SECRET_KEY: 'e2e-secret-value', API_SESSION_KEY: 'e2e-session-value', PROJECT_AUTH_TOKEN: '' };
  const proc = spawn(process.execPath, [entry, 'sim', '--port', '0', '--seed-listings', '3', '--chatbot', 'bot-e2e'], { env });
  child = proc;
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const line = await firstLine(proc);
  const match = /^listing-sync simulator listening on (http:\/\/127\.0\.0\.1:\d+) \(chatbots: bot-e2e\)$/.exec(line);
  expect(match, line).not.toBeNull();
  const baseUrl = match?.[1] ?? '';

  const res = await request(`${baseUrl}/chat/Chatbot/RealEstateList`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'chatrobot-sessionkey': 'e2e-session-value' },
    body: JSON.stringify({ SerialNumber: 'bot-e2e' }),
  });
  const envelope = looseEnvelopeSchema.parse(await res.body.json());
  expect(envelope).toMatchObject({ Success: true, Data: { VirtualCount: 3 } });

  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).not.toContain('e2e-secret-value');
  expect(output).not.toContain('e2e-session-value');
});

/** Collects stdout until `count` lines starting with `export ` came. */
function exportLines(proc: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (!proc.stdout) return reject(new Error('no stdout'));
    const found: string[] = [];
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line.startsWith('export ')) found.push(line);
      if (found.length === count) resolve(found);
    });
    proc.once('exit', (code) => reject(new Error(`sim exited early with ${String(code)}`)));
  });
}

/** Runs a shell that evaluates `exports` and then the CLI with `args`: what a user does after pasting them. */
function afterPasting(
  exports: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const script = `${exports.join('\n')}\nexec "$NODE" "$CLI" "$@"`;
  const shell = spawn('sh', ['-c', script, 'sh', ...args], {
    env: { PATH: process.env.PATH ?? '', NODE: process.execPath, CLI: entry, ...env },
  });
  let out = '';
  shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  shell.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => shell.once('close', (code) => resolve({ code, out })));
}

it('prints export lines which, pasted into another shell, let the CLI read and sync against it', async () => {
  const proc = spawn(process.execPath, [entry, 'sim', '--seed-listings', '3', '--chatbot', 'bot-paste'], {
    env: { PATH: process.env.PATH ?? '' },
  });
  child = proc;
  const exports = await exportLines(proc, 4);
  expect(exports.map((line) => line.split('=')[0])).toEqual([
    'export API_BASE_URL',
    'export API_SECRET_KEY',
    'export API_SESSION_KEY',
    'export PROJECT_AUTH_TOKEN',
  ]);

  const listed = await afterPasting(exports, ['listings', 'list', '--chatbot', 'bot-paste'], {});
  expect(listed.out).toContain('3 of 3 listings');
  expect(listed.code).toBe(0);

  const prefix = uniquePrefix('sim-paste');
  const redisUrl = inject('redisUrl');
  const feed = `${root}fixtures/demo/listings.csv`;
  const synced = await afterPasting(exports, ['sync', '--chatbot', 'bot-paste', '--feed', feed, '--dry-run'], {
    REDIS_URL: redisUrl,
    LISTING_SYNC_PREFIX: prefix,
  });
  expect(synced.out).toMatch(/dry run \(nothing was changed\)/);
  expect(synced.out).toMatch(/^plan +create \d+, update \d+/m);
  expect(synced.code).toBe(0);
  await cleanPrefix(redisUrl, prefix);
});

it('does not print keys it took from its env: it says to set the same values on the CLI side', async () => {
  const env = { PATH: process.env.PATH ?? '', API_SESSION_KEY: 'paste-session-secret' };
  const proc = spawn(process.execPath, [entry, 'sim'], { env });
  child = proc;
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exports = await exportLines(proc, 3);
  expect(exports.some((line) => line.startsWith('export API_SESSION_KEY'))).toBe(false);
  expect(output).toMatch(/^# API_SESSION_KEY: set the same value/m);
  expect(output).not.toContain('paste-session-secret');
});
