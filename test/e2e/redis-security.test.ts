/**
 * Redis turning the tool away is named as such, in one line with the fix, by the built CLI: a
 * wrong password (WRONGPASS), none given (NOAUTH), an ACL user without a permission (NOPERM), an
 * untrusted TLS certificate. An ACL user limited to the prefix (docs/redis-security.md) runs a
 * whole `sync --work`. `doctor --connect` warns, without failing, about a Redis with no password
 * that is not on loopback. Each Redis is a redis-server of the test's own.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/cli/wiring/local-redis.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { uniquePrefix } from '../helpers/redis.js';
import { lines, runCli } from '../helpers/run-cli.js';

const FEED = new URL('../../fixtures/sync/listings-0-2.csv', import.meta.url).pathname;
const PASSWORD = 'Redis-Security-Pw-7e1d';
const started: RedisProcess[] = [];
const dirs: string[] = [];
let sim: RunningSimulator | undefined;

afterEach(async () => {
  for (const redis of started.splice(0)) await redis.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await sim?.close();
  sim = undefined;
});

async function redis(options: Parameters<typeof startRedisProcess>[0]): Promise<RedisProcess> {
  const r = await startRedisProcess({ ...options, args: ['--appendonly', 'no', ...(options?.args ?? [])] });
  started.push(r);
  return r;
}

/** The one line a failed command printed, checked to name nothing secret. */
async function refusal(args: readonly string[], env: Record<string, string>, secret = PASSWORD): Promise<string> {
  const run = await runCli(args, env);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(lines(run.stderr), run.stderr).toHaveLength(1);
  expect(run.stderr).not.toContain(secret);
  return run.stderr;
}

/** A CA and a certificate for 127.0.0.1 it signed, made with openssl in a temporary directory. */
function certificates(): { dir: string; ca: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ls-redis-tls-'));
  dirs.push(dir);
  const at = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=ls test CA',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('redis.key'), '-out', at('redis.csr'), '-subj', '/CN=127.0.0.1');
  execFileSync('sh', ['-c', `printf 'subjectAltName=IP:127.0.0.1\\n' > '${at('ext.cnf')}'`]);
  openssl(
    'x509',
    '-req',
    '-in',
    at('redis.csr'),
    '-CA',
    at('ca.crt'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('redis.crt'),
    '-days',
    '2',
    '-extfile',
    at('ext.cnf'),
  );
  return { dir, ca: at('ca.crt'), cert: at('redis.crt'), key: at('redis.key') };
}

function hasTls(): boolean {
  try {
    return execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).length > 0 && execFileSync('openssl', ['version']).length > 0;
  } catch {
    return false;
  }
}

describe.skipIf(!hasRedisServer())('Redis refusals, named', () => {
  it('a wrong password is WRONGPASS and a missing one NOAUTH, each with the fix', async () => {
    const r = await redis({ password: PASSWORD });
    const address = `127.0.0.1:${r.port}`;
    const wrong = await refusal(['runs', 'list'], { REDIS_URL: `redis://:not-${PASSWORD}@${address}` }, `not-${PASSWORD}`);
    expect(wrong).toMatch(/^listing-sync: Redis at 127\.0\.0\.1:\d+ refused the password \(WRONGPASS\): set the right one in REDIS_URL/);
    expect(wrong).toContain('docs/redis-security.md');
    const none = await refusal(['jobs', 'failed'], { REDIS_URL: `redis://${address}` });
    expect(none).toMatch(/requires a password \(NOAUTH\) and none was given: put it in REDIS_URL: redis:\/\/:PASSWORD@host:port/);
    expect(none).not.toContain('Connection is closed');
    expect((await runCli(['runs', 'list'], { REDIS_URL: r.url })).code).toBe(0);
  });

  it('an ACL user without the prefix is NOPERM; one limited to the prefix runs a whole sync --work', async () => {
    const prefix = uniquePrefix('acl');
    const user = (name: string, keys: string, channels: string): string[] => [
      '--user',
      name,
      'on',
      `>${PASSWORD}`,
      keys,
      channels,
      '+@all',
      '-@dangerous',
      '+info',
      '+config|get',
    ];
    const r = await redis({
      password: `admin-${PASSWORD}`,
      args: [...user('elsewhere', '~other:*', '&other:*'), ...user('lsync', `~${prefix}:*`, `&${prefix}:*`)],
    });
    const at = (name: string): string => `redis://${name}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${r.port}`;
    const denied = await refusal(['runs', 'list'], { REDIS_URL: at('elsewhere'), LISTING_SYNC_PREFIX: prefix });
    expect(denied).toMatch(
      /^listing-sync: Redis refused a command for want of an ACL permission \(NOPERM .+\): grant the user in REDIS_URL/,
    );

    const s = await startTestSim({ chatbots: ['bot-acl'], listings: { 'bot-acl': [] } });
    sim = s;
    const env = { ...simEnv(s), REDIS_URL: at('lsync'), LISTING_SYNC_PREFIX: prefix, LISTING_SYNC_BACKOFF_MS: '5' };
    const run = await runCli(['sync', '--chatbot', 'bot-acl', '--feed', FEED, '--work'], env, 60_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('created 3');
    expect(s.state.listings('bot-acl')).toHaveLength(3);
  }, 90_000);

  it.skipIf(!hasTls())('an untrusted TLS certificate is named, and trusting its CA connects', async () => {
    const tls = certificates();
    const tlsPort = await freePort();
    await redis({
      args: [
        '--tls-port',
        String(tlsPort),
        '--tls-cert-file',
        tls.cert,
        '--tls-key-file',
        tls.key,
        '--tls-ca-cert-file',
        tls.ca,
        '--tls-auth-clients',
        'no',
      ],
    });
    const url = `rediss://127.0.0.1:${tlsPort}`;
    const untrusted = await refusal(['runs', 'list'], { REDIS_URL: url });
    expect(untrusted).toMatch(
      /^listing-sync: Redis at 127\.0\.0\.1:\d+ presented a TLS certificate that is not trusted \([A-Z_]+\): give Node the CA/,
    );
    expect(untrusted).toContain('NODE_EXTRA_CA_CERTS');
    const trusted = await runCli(['runs', 'list'], { REDIS_URL: url, NODE_EXTRA_CA_CERTS: tls.ca });
    expect(trusted.code, trusted.stderr).toBe(0);
  });
});

/** An IPv4 address of this host that is not loopback, if it has one. */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

describe.skipIf(!hasRedisServer() || outsideAddress() === undefined)('doctor --connect and an open Redis', () => {
  it('warns (without failing) when Redis has no password and is not on loopback, and not otherwise', async () => {
    const address = outsideAddress() ?? '';
    const r = await redis({ args: ['--bind', '127.0.0.1', address, '--protected-mode', 'no'] });
    const s = await startTestSim({ chatbots: ['bot-open'] });
    sim = s;
    const base = { ...simEnv(s), LISTING_SYNC_PREFIX: uniquePrefix('open') };
    const open = await runCli(['doctor', '--connect', '--chatbot', 'bot-open'], { ...base, REDIS_URL: `redis://${address}:${r.port}` });
    // This Redis has no persistence either: that is a warning of its own (development setups).
    const warnings = open.stdout.split('\n').filter((line) => line.startsWith('! ') && !line.startsWith('! Redis persistence'));
    expect(warnings, open.stdout).toHaveLength(1);
    expect(warnings[0]).toMatch(/^! Redis password +none, and Redis is not on loopback/);
    expect(open.code, open.stdout).toBe(0);
    expect(open.stdout).toContain('fix: set requirepass (or an ACL user limited to the prefix)');
    expect(open.stdout).not.toMatch(/✗ Redis password/);
    const local = await runCli(['doctor', '--connect', '--chatbot', 'bot-open'], { ...base, REDIS_URL: `redis://127.0.0.1:${r.port}` });
    expect(local.stdout).not.toContain('Redis password');
    // The warning is no failure: both runs end alike (persistence is off in this Redis either way).
    expect(open.code).toBe(local.code);
  });
});
