/**
 * The dashboard's protection over real HTTP: credentials on every route, basic and bearer,
 * CSRF on state changes, read-only mode, the loopback rule of --insecure-local, the shortest
 * password, the lockout after repeated wrong credentials, and the plain-HTTP warning.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import type { DashboardOptions } from '../../src/dashboard/types.js';
import { createLogger, silentLogger } from '../../src/runtime/logger.js';
import { lines, runCli } from '../helpers/run-cli.js';
import { RUN_ID, fakeDashboardData, type FakeDashboardData } from '../helpers/dashboard.js';

const USER = 'ops';
const PASSWORD = 'correct horse battery staple';
const TOKEN = 'tok-0123456789abcdef';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const BEARER = `Bearer ${TOKEN}`;

let running: RunningDashboard | undefined;
let data: FakeDashboardData;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(overrides: Partial<DashboardOptions & { host: string }> = {}): Promise<string> {
  data = fakeDashboardData();
  running = await startDashboard({
    data,
    queues: [],
    auth: { user: USER, password: PASSWORD, token: TOKEN },
    readOnly: false,
    metrics: createMetrics({ defaultMetrics: false }),
    logger: silentLogger(),
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  });
  return running.url;
}

const runPath = `/runs/${RUN_ID}`;
const PROTECTED_GETS = [
  '/',
  runPath,
  `${runPath}/rejected.csv`,
  '/search?key=A1',
  '/metrics',
  '/healthz',
  '/assets/dashboard.css',
  '/queues',
  '/queues/',
  '/queues/api/queues',
  '/nope',
];

/** The CSRF token rendered in the run page's retry form. */
async function csrfToken(url: string, authorization: string): Promise<string> {
  const page = await (await fetch(`${url}${runPath}`, { headers: { authorization } })).text();
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error('no CSRF token on the run page');
  return match[1];
}

/** A GET of `path` sent from the loopback source address `from` (127.0.0.0/8 are all this host). */
function statusFrom(url: string, from: string, authorization: string): Promise<{ status: number | undefined; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { localAddress: from, headers: { authorization }, agent: false }, (res) => {
      res.resume();
      const retryAfter = res.headers['retry-after'];
      res.on('end', () => resolve({ status: res.statusCode, ...(retryAfter === undefined ? {} : { retryAfter }) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A logger whose lines the test reads. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const captured: string[] = [];
  return { logger: createLogger({ level: 'info', destination: { write: (line: string) => void captured.push(line) } }), lines: captured };
}

function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

function postForm(url: string, fields: Record<string, string>, headers: Record<string, string>): Promise<Response> {
  return fetch(`${url}${runPath}/retry`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('dashboard authentication', () => {
  it('answers 401 with a WWW-Authenticate challenge on every route without credentials', async () => {
    const url = await start();
    for (const path of PROTECTED_GETS) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate'), path).toMatch(/^Basic realm=/);
      const body = await res.text();
      expect(body, path).not.toContain('bot-demo');
    }
    const post = await postForm(url, { csrf: 'x' }, {});
    expect(post.status).toBe(401);
    const bullBoardRetry = await fetch(`${url}/queues/api/queues/any/retry/failed`, { method: 'PUT' });
    expect(bullBoardRetry.status).toBe(401);
    expect(data.retryCalls).toEqual([]);
  });

  it('accepts basic auth and a bearer token, and refuses a wrong password or token', async () => {
    const url = await start();
    const basic = await fetch(`${url}/`, { headers: { authorization: BASIC } });
    expect(basic.status).toBe(200);
    expect(await basic.text()).toContain(RUN_ID);
    const bearer = await fetch(`${url}${runPath}`, { headers: { authorization: BEARER } });
    expect(bearer.status).toBe(200);
    const wrongPassword = `Basic ${Buffer.from(`${USER}:wrong`).toString('base64')}`;
    expect((await fetch(`${url}/`, { headers: { authorization: wrongPassword } })).status).toBe(401);
    const wrongUser = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
    expect((await fetch(`${url}/`, { headers: { authorization: wrongUser } })).status).toBe(401);
    expect((await fetch(`${url}/`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await fetch(`${url}/queues/api/queues`, { headers: { authorization: BASIC } })).status).toBe(200);
  });

  it('sets security headers on pages and on the 401', async () => {
    const url = await start();
    for (const headers of [{ authorization: BASIC }, {}] as Array<Record<string, string>>) {
      const res = await fetch(`${url}/`, { headers });
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const board = await fetch(`${url}/queues/`, { headers: { authorization: BASIC } });
    expect(board.status).toBe(200);
    expect(board.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('dashboard state changes', () => {
  it('refuses a POST without a valid CSRF token, and retries with one', async () => {
    const url = await start();
    expect((await postForm(url, {}, { authorization: BASIC })).status).toBe(403);
    expect((await postForm(url, { csrf: 'forged' }, { authorization: BASIC })).status).toBe(403);
    // A token is bound to the credentials it was issued to: the bearer identity's token fails for basic.
    const bearerToken = await csrfToken(url, BEARER);
    expect((await postForm(url, { csrf: bearerToken }, { authorization: BASIC })).status).toBe(403);
    expect(data.retryCalls).toEqual([]);

    const token = await csrfToken(url, BASIC);
    const crossSite = await postForm(url, { csrf: token }, { authorization: BASIC, origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(data.retryCalls).toEqual([]);

    // bull-board's API cannot carry our token: its state changes are judged by Origin alone.
    const boardRetry = (origin: string) =>
      fetch(`${url}/queues/api/queues/none/retry/failed`, { method: 'PUT', headers: { authorization: BASIC, origin } });
    expect((await boardRetry('https://evil.example')).status).toBe(403);
    expect((await boardRetry(url)).status).not.toBe(403);

    const ok = await postForm(url, { csrf: token }, { authorization: BASIC, origin: url });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`${runPath}?retried=2`);
    expect(data.retryCalls).toEqual([RUN_ID]);
  });

  it('in read-only mode shows no action and refuses every POST/PUT', async () => {
    const url = await start({ readOnly: true });
    const page = await (await fetch(`${url}${runPath}`, { headers: { authorization: BASIC } })).text();
    expect(page).toContain('Failed jobs (2)');
    expect(page).not.toContain('Retry all failed jobs');
    expect(page).not.toContain('<form method="post"');
    expect(page).toContain('read-only');
    expect((await postForm(url, { csrf: 'anything' }, { authorization: BASIC })).status).toBe(403);
    const bullBoardRetry = await fetch(`${url}/queues/api/queues/any/retry/failed`, { method: 'PUT', headers: { authorization: BASIC } });
    expect(bullBoardRetry.status).toBe(403);
    expect(data.retryCalls).toEqual([]);
  });

  it('in read-write mode shows the one retry button', async () => {
    const url = await start();
    const page = await (await fetch(`${url}${runPath}`, { headers: { authorization: BASIC } })).text();
    expect(page.match(/Retry all failed jobs/g)).toHaveLength(1);
  });
});

describe('dashboard start-up rules', () => {
  it('refuses to start without credentials', async () => {
    await expect(start({ auth: {} })).rejects.toThrow(/DASHBOARD_USER and DASHBOARD_PASSWORD, or DASHBOARD_TOKEN/);
    await expect(start({ auth: { user: USER } })).rejects.toThrow(/DASHBOARD_USER/);
  });

  it('--insecure-local refuses a non-loopback host, and on loopback answers only loopback Host names', async () => {
    await expect(start({ auth: 'insecure-local', host: '0.0.0.0' })).rejects.toThrow(/--insecure-local binds to 127\.0\.0\.1 only/);
    const url = await start({ auth: 'insecure-local' });
    expect((await fetch(`${url}/`)).status).toBe(200);
    // fetch always sends the URL's host, so node:http sends the Host a DNS-rebinding page would.
    expect(await statusWithHost(url, 'attacker.example')).toBe(421);
    expect(await statusWithHost(url, 'localhost')).toBe(200);
  });
});

describe("the dashboard's door", () => {
  const wrong = `Basic ${Buffer.from(`${USER}:not-the-password-at-all`).toString('base64')}`;

  it('refuses a password shorter than 12 characters: exit 2, one line naming its length and the minimum', async () => {
    await expect(start({ auth: { user: USER, password: 'short-pw' } })).rejects.toThrow(
      'DASHBOARD_PASSWORD is 8 characters long; it must have at least 12',
    );
    const run = await runCli(['dashboard', '--port', '0'], { DASHBOARD_USER: USER, DASHBOARD_PASSWORD: 'x' });
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([
      'listing-sync: DASHBOARD_PASSWORD is 1 character long; it must have at least 12 (or use DASHBOARD_TOKEN)',
    ]);
    expect(run.stdout).toBe('');
    // Twelve is enough.
    await expect(start({ auth: { user: USER, password: 'twelve-chars' } })).resolves.toMatch(/^http:/);
  });

  it('answers 429 to a client after more than 10 wrong credentials within a minute, the right ones included, and logs it once', async () => {
    const log = capturingLogger();
    const url = await start({ logger: log.logger });
    const statuses: Array<number | undefined> = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await statusFrom(url, '127.0.0.2', wrong)).status);
    expect(statuses).toEqual(Array.from({ length: 11 }, () => 401));
    const locked = await statusFrom(url, '127.0.0.2', BASIC);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(60);
    for (let i = 0; i < 5; i += 1) expect((await statusFrom(url, '127.0.0.2', i % 2 === 0 ? wrong : BEARER)).status).toBe(429);
    // Another client is not locked out, and requests without credentials are no guesses.
    expect((await statusFrom(url, '127.0.0.3', BASIC)).status).toBe(200);
    for (let i = 0; i < 15; i += 1) expect((await fetch(`${url}/`)).status).toBe(401);
    expect((await fetch(`${url}/`, { headers: { authorization: BASIC } })).status).toBe(200);

    const lockouts = log.lines.filter((line) => line.includes('wrong credentials'));
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toContain('127.0.0.2');
    expect(lockouts[0]).toContain('429');
    expect(log.lines.join('')).not.toContain('not-the-password-at-all');
    expect(log.lines.join('')).not.toContain(PASSWORD);
  });

  it('warns once, naming TLS and a reverse proxy, when it serves plain HTTP on a non-loopback address', async () => {
    const wide = capturingLogger();
    await start({ logger: wide.logger, host: '0.0.0.0' });
    const warnings = wide.lines.filter((line) => line.includes('"level":40'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/plain HTTP on 0\.0\.0\.0.*reverse proxy that terminates TLS/);
    await running?.close();
    running = undefined;
    const local = capturingLogger();
    await start({ logger: local.logger });
    expect(local.lines.filter((line) => line.includes('"level":40'))).toEqual([]);
  });
});
