/**
 * A service that quotes the request back (the simulator's `echoRequest` fault: headers and body
 * as written, percent-encoded and in base64) must not make any secret visible. Every secret is
 * planted — the three service credentials (one with `"`, `\` and a non-ASCII character), a feed
 * token, the dashboard's password and token, the Redis password of a Redis of the test's own —
 * then `sync --work`, `sync` + `worker`, `listings list`, `doctor --connect`, `jobs failed`,
 * `runs show` and the dashboard's pages and bull-board run against it, and every Redis value (all
 * types), every output and every page is searched for each secret in each encoding.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { uniquePrefix } from '../helpers/redis.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const BOT = 'bot-echo';
const FEED = new URL('../../fixtures/sync/listings-0-2.csv', import.meta.url).pathname;
const CREDENTIALS = {
  secretKey: 'SK-q"uo\\te-é-41ab9c',
  sessionKey: 'SS-Session-8c2e7d1f-Hotel',
  projectAuthToken: 'PT-Token-5d1f3a2b-India',
};
const REDIS_PASSWORD = 'RedisPw-9a8b7c6d-Juliett';
const PLANTED = {
  FEED_TOKEN: 'FT-FeedToken-1e2d3c4b-Kilo',
  DASHBOARD_USER: 'ops',
  DASHBOARD_PASSWORD: 'DashPassword-6f5e4d3c-Lima',
  DASHBOARD_TOKEN: 'DashToken-2b3c4d5e-Mike',
};
const SECRETS = [...Object.values(CREDENTIALS), REDIS_PASSWORD, PLANTED.FEED_TOKEN, PLANTED.DASHBOARD_PASSWORD, PLANTED.DASHBOARD_TOKEN];

/** Each encoding a secret could be found in: as itself, JSON-escaped, percent-encoded, base64 at each alignment. */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const base64 = [0, 1, 2].map((lead) => {
    const encoded = Buffer.concat([Buffer.alloc(lead), Buffer.from(secret)]).toString('base64');
    const bits = (lead + Buffer.byteLength(secret)) * 8;
    return encoded.slice(Math.ceil((lead * 8) / 6), Math.floor(bits / 6));
  });
  return [secret, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(secret), ...base64];
}

function leaks(texts: Record<string, string>, secrets: readonly string[] = SECRETS): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts))
    for (const secret of secrets) for (const form of encodings(secret)) if (text.includes(form)) found.push(`${where}: ${form}`);
  return found;
}

/** The dashboard started on `env`, each of `paths` fetched as a browser would (basic auth), then stopped. */
async function dashboardPages(
  env: Record<string, string>,
  paths: readonly string[],
): Promise<{ pages: Record<string, string>; output: string }> {
  const dashboard = startCli(['dashboard', '--port', '0'], env);
  processes.push(dashboard);
  const line = await new Promise<string>((done) => {
    if (dashboard.child.stdout) createInterface({ input: dashboard.child.stdout }).once('line', done);
  });
  const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? '';
  const basic = `Basic ${Buffer.from(`${PLANTED.DASHBOARD_USER}:${PLANTED.DASHBOARD_PASSWORD}`).toString('base64')}`;
  const pages: Record<string, string> = {};
  for (const path of paths) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: basic } });
    expect(res.status, path).toBe(200);
    pages[`page ${path}`] = await res.text();
  }
  await dashboard.stop();
  return { pages, output: dashboard.stdout() + dashboard.stderr() };
}

/** Each run's stdout and stderr, by name. */
function outputsOf(runs: Record<string, CliRun>): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, run] of Object.entries(runs)) {
    texts[`${name} stdout`] = run.stdout;
    texts[`${name} stderr`] = run.stderr;
  }
  return texts;
}

/** Every key and value in the Redis, whatever its type, as text. */
async function redisTexts(url: string): Promise<string> {
  const redis = new Redis(url);
  const texts: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        texts.push(key);
        if (type === 'string') texts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') texts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') texts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') texts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') texts.push(JSON.stringify(await redis.zrange(key, '0', '-1', 'WITHSCORES')));
        else if (type === 'stream') texts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
        else texts.push(`unread type ${type}`);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return texts.join('\n');
}

const available = hasRedisServer();
const servers: Server[] = [];

/** The webhook's secrets: a token in its path, one in its query, a password in its user info. */
const HOOK = {
  pathToken: 'HookPathToken-7e6d5c4b-November',
  queryToken: 'HookQueryToken-3f2e1d0c-Oscar',
  password: 'HookPassword-1a2b3c4d-Papa',
};
const HOOK_SECRETS = Object.values(HOOK);

/**
 * A careless webhook: answers 500 to every post, quoting the request (its URL with the tokens, its
 * headers) in the body and in a header, as written, percent-encoded and in base64. Counts posts.
 */
async function echoingWebhook(): Promise<{ url: string; posts: string[] }> {
  const posts: string[] = [];
  const server = createServer((request, response) => {
    const quoted = `url ${request.url ?? ''}; headers ${JSON.stringify(request.headers)}`;
    posts.push(request.url ?? '');
    response.writeHead(500, { 'content-type': 'text/plain', 'x-echo': encodeURIComponent(quoted) });
    response.end(`refused: ${quoted}; ${encodeURIComponent(quoted)}; ${Buffer.from(quoted).toString('base64')}`);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://hooks:${HOOK.password}@127.0.0.1:${port}/services/T0ECHO/B0ECHO/${HOOK.pathToken}?token=${HOOK.queryToken}`,
    posts,
  };
}
let sim: RunningSimulator;
let redis: RedisProcess | undefined;
const processes: CliProcess[] = [];

beforeEach(async () => {
  sim = await startTestSim({ credentials: CREDENTIALS, chatbots: [BOT], listings: { [BOT]: [] } });
});

afterEach(async () => {
  for (const proc of processes.splice(0)) await proc.kill();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await sim.close();
  await redis?.close();
  redis = undefined;
});

describe.skipIf(!available)('a service that echoes the request', () => {
  it('leaves no secret in Redis, CLI output, logs, pages or bull-board', async () => {
    const r = await startRedisProcess({ password: REDIS_PASSWORD });
    redis = r;
    const prefix = uniquePrefix('secrets-echo');
    const env = { ...cliEnv(sim, r.url, prefix), ...PLANTED, LOG_LEVEL: 'debug' };
    const runs: Record<string, CliRun> = {};

    // Writes are refused quoting the request (Authorization carries the secret key); reads answer.
    sim.state.setFaults({ echoRequest: true, endpoints: ['createListing', 'updateListing', 'deleteListings'] });
    runs.syncWork = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--work', '--json'], env, 60_000);
    expect(runs.syncWork.code, runs.syncWork.stderr).toBe(1);
    const runId = jsonOf<{ runId: string }>(runs.syncWork).runId;
    runs.syncWorkText = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--work'], env, 60_000);
    expect(runs.syncWorkText.code, runs.syncWorkText.stderr).toBe(1);

    // The same through a worker process: `sync` enqueues, the worker fails the jobs.
    runs.syncEnqueue = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--json'], env, 60_000);
    expect(runs.syncEnqueue.code, runs.syncEnqueue.stderr).toBe(0);
    const enqueuedRun = jsonOf<{ runId: string }>(runs.syncEnqueue).runId;
    const worker = startCli(['worker'], env);
    processes.push(worker);
    for (let i = 0; i < 200; i += 1) {
      const shown = await runCli(['runs', 'show', enqueuedRun, '--json'], env);
      if (jsonOf<{ status: string }>(shown).status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await worker.stop();

    sim.state.setFaults({ echoRequest: true });
    runs.listings = await runCli(['listings', 'list', '--chatbot', BOT], env);
    runs.listingsJson = await runCli(['listings', 'list', '--chatbot', BOT, '--json'], env);
    runs.doctor = await runCli(['doctor', '--connect', '--chatbot', BOT], env);
    runs.doctorJson = await runCli(['doctor', '--connect', '--chatbot', BOT, '--json'], env);
    sim.state.setFaults({});
    runs.failed = await runCli(['jobs', 'failed'], env);
    runs.failedJson = await runCli(['jobs', 'failed', '--json'], env);
    runs.show = await runCli(['runs', 'show', runId], env);
    runs.showJson = await runCli(['runs', 'show', enqueuedRun, '--json'], env);
    expect(runs.listings.code).toBe(1);

    // The dashboard and bull-board, fetched as a browser would (basic auth).
    const { pages, output: dashboardOutput } = await dashboardPages(env, [
      '/',
      `/runs/${runId}`,
      `/runs/${enqueuedRun}`,
      `/chatbots/${BOT}`,
      '/health',
      '/metrics',
      '/queues/',
      '/queues/api/queues?activeQueue=listing-writes&status=failed',
    ]);

    // The search means something: the service did quote the secrets, and the failures were kept.
    const calls = sim.state.calls().filter((call) => call.endpoint === 'createListing');
    expect(calls.length).toBeGreaterThanOrEqual(9);
    expect(runs.failed.stdout).toContain('request refused: headers');
    expect(runs.failed.stdout).toContain('[redacted]');
    expect(runs.listings.stderr).toContain('[redacted]');
    expect(pages['page /queues/api/queues?activeQueue=listing-writes&status=failed']).toContain('request refused');
    expect(pages[`page /runs/${runId}`]).toContain('request refused');
    const stored = await redisTexts(r.url);
    expect(stored).toContain('request refused');
    expect(runs.syncWork.stderr).toContain('"level":20');

    const texts: Record<string, string> = { redis: stored, ...pages, ...outputsOf(runs) };
    texts['worker output'] = worker.stdout() + worker.stderr();
    texts['dashboard output'] = dashboardOutput;
    expect(leaks(texts)).toEqual([]);
  }, 240_000);

  it('leaves no webhook secret in Redis (the alert configuration included), CLI output, logs, pages or bull-board', async () => {
    const r = await startRedisProcess({ password: REDIS_PASSWORD });
    redis = r;
    const prefix = uniquePrefix('secrets-echo-hook');
    const env = { ...cliEnv(sim, r.url, prefix), ...PLANTED, LOG_LEVEL: 'debug' };
    const hook = await echoingWebhook();
    // The service's echo quotes the webhook too (with its tokens, as written and percent-encoded).
    const planted = `webhook ${hook.url} ${encodeURIComponent(hook.url)}`;
    const runs: Record<string, CliRun> = {};
    runs.add = await runCli(['alerts', 'add', 'ops', '--webhook', hook.url, '--format', 'slack'], env);
    runs.addJson = await runCli(['alerts', 'add', 'ops-json', '--webhook', hook.url, '--json'], env);
    runs.badFormat = await runCli(['alerts', 'add', 'bad', '--webhook', `${hook.url}#frag`, '--format', 'xml'], env);
    expect([runs.add.code, runs.addJson.code, runs.badFormat.code]).toEqual([0, 0, 2]);

    sim.state.setFaults({ echoRequest: true, echoAlso: planted, endpoints: ['createListing', 'updateListing', 'deleteListings'] });
    runs.syncWork = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--work', '--json'], env, 60_000);
    expect(runs.syncWork.code, runs.syncWork.stderr).toBe(1);
    const runId = jsonOf<{ runId: string }>(runs.syncWork).runId;
    // A worker delivers the "failed" alert (the webhook answers 500, quoting the request) and fails the jobs of a second run.
    runs.syncEnqueue = await runCli(['sync', '--chatbot', BOT, '--feed', FEED, '--json'], env, 60_000);
    const worker = startCli(['worker'], env);
    processes.push(worker);
    for (let i = 0; i < 200 && hook.posts.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 250));
    await worker.stop();
    sim.state.setFaults({});

    runs.test = await runCli(['alerts', 'test', 'ops'], env);
    runs.testJson = await runCli(['alerts', 'test', 'ops-json', '--json'], env);
    runs.list = await runCli(['alerts', 'list'], env);
    runs.listJson = await runCli(['alerts', 'list', '--json'], env);
    runs.failed = await runCli(['jobs', 'failed'], env);
    runs.failedJson = await runCli(['jobs', 'failed', '--json'], env);
    runs.show = await runCli(['runs', 'show', runId], env);
    runs.doctor = await runCli(['doctor', '--connect', '--chatbot', BOT], env);
    expect([runs.test.code, runs.testJson.code]).toEqual([1, 1]);

    const { pages, output: dashboardOutput } = await dashboardPages(env, [
      '/',
      '/alerts',
      '/health',
      `/runs/${runId}`,
      `/chatbots/${BOT}`,
      '/queues/api/queues?activeQueue=alerts&status=failed',
      '/queues/api/queues?activeQueue=alerts&status=delayed',
      '/queues/api/queues?activeQueue=listing-writes&status=failed',
    ]);

    // The search means something: the webhook was posted at its secret path (the worker opened the
    // sealed URL), the service quoted the tokens, the failures were kept, and the configurations are
    // in Redis, sealed, with their shown form only.
    expect(hook.posts.length).toBeGreaterThanOrEqual(2);
    expect(hook.posts.every((path) => path.includes(HOOK.pathToken) && path.includes(HOOK.queryToken))).toBe(true);
    expect(runs.failed.stdout).toContain('request refused: headers');
    expect(runs.failedJson.stdout).toContain('also webhook [redacted] [redacted]');
    expect(runs.test.stderr).toContain('the webhook answered HTTP 500');
    expect(runs.list.stdout).toContain('http://127.0.0.1:');
    expect(pages['page /alerts']).toContain('/***');
    const reader = new Redis(r.url);
    const configs = Object.values(await reader.hgetall(`${prefix}:ls:alerts`)).map((text) => JSON.parse(text) as unknown);
    reader.disconnect();
    const sealed = {
      webhook: expect.objectContaining({ v: 1 }),
      webhookShown: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\*\*\*$/),
    };
    expect(configs).toEqual([expect.objectContaining(sealed), expect.objectContaining(sealed)]);

    const texts: Record<string, string> = { redis: await redisTexts(r.url), ...pages, ...outputsOf(runs) };
    texts['worker output'] = worker.stdout() + worker.stderr();
    texts['dashboard output'] = dashboardOutput;
    expect(texts.redis).toContain('request refused');
    expect(leaks(texts, [...HOOK_SECRETS, ...SECRETS])).toEqual([]);
  }, 240_000);
});
