/**
 * `listing-sync sim` as a process: it prints where it listens, answers a request with the
 * credentials from the env, never prints them, and exits 0 on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { request } from 'undici';
import { looseEnvelopeSchema } from '../../src/api/schemas.js';

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
