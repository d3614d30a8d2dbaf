/**
 * `listing-sync dashboard` (the built CLI as a process) while its Redis — a redis-server of the
 * test's own — goes away and comes back: pages and bull-board answer 503 with a clear message
 * during the outage and 200 again after it, without restarting the dashboard; the process logs
 * the outage in a line or two, never a stack trace, and stops promptly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { linesSaying, PROMPT_EXIT_MS, stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { uniquePrefix } from '../helpers/redis.js';

let redis: RedisProcess | undefined;
let dashboard: CliProcess | undefined;

afterEach(async () => {
  await dashboard?.kill();
  dashboard = undefined;
  await redis?.close();
  redis = undefined;
});

/** Pages a user opens, and the API bull-board's page polls. */
const PAGES = [
  '/',
  '/search?key=ML100001',
  '/queues/',
  '/queues/api/queues?activeQueue=listing-writes&status=latest&page=1&jobsPerPage=10',
];

async function startDashboard(url: string): Promise<string> {
  dashboard = startCli(['dashboard', '--insecure-local', '--port', '0'], {
    REDIS_URL: url,
    LISTING_SYNC_PREFIX: uniquePrefix('dash-outage'),
    LOG_LEVEL: 'info',
  });
  await dashboard.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\//);
  const base = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(dashboard.stdout())?.[1];
  if (base === undefined) throw new Error(`no URL in ${dashboard.stdout()}`);
  return base;
}

async function statusOf(base: string, path: string, accept = 'text/html'): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${path}`, { headers: { accept } });
  return { status: response.status, body: await response.text() };
}

/** Resolves once every page answers `status`. */
async function untilEvery(base: string, status: number, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const answers = await Promise.all(PAGES.map((path) => statusOf(base, path)));
    if (answers.every((answer) => answer.status === status)) return;
    if (Date.now() > end)
      throw new Error(`pages did not all answer ${status}: ${answers.map((a, i) => `${PAGES[i]} ${a.status}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function expectOutagePages(base: string): Promise<void> {
  await untilEvery(base, 503);
  const page = await statusOf(base, '/');
  expect(page.body).toContain('Redis is not answering');
  expect(page.body).toContain('no restart needed');
  const api = await statusOf(base, PAGES[3] ?? '', 'application/json');
  expect(api.status).toBe(503);
  expect(api.body).toMatch(/^Redis is not answering: /);
  expect(await statusOf(base, '/healthz')).toEqual({ status: 503, body: 'redis unavailable\n' });
  expect((await statusOf(base, '/metrics')).status).toBe(200);
}

async function expectQuietStop(d: CliProcess): Promise<void> {
  const { code, ms } = await d.stop();
  expect(code).toBe(0);
  expect(ms).toBeLessThan(PROMPT_EXIT_MS);
  expect(d.stderr()).not.toContain('forcing exit');
  const stderr = d.stderr();
  expect(stackTraceLines(stderr), stderr).toEqual([]);
  expect(stderr).not.toMatch(/Unhandled error event|dashboard request failed/);
  expect(linesSaying(stderr, /is not answering/).length, stderr).toBeGreaterThanOrEqual(1);
  expect(linesSaying(stderr, /is not answering/).length, stderr).toBeLessThanOrEqual(3);
}

const HAS_REDIS_SERVER = hasRedisServer();

describe.skipIf(!HAS_REDIS_SERVER)(
  `dashboard through a Redis restart${HAS_REDIS_SERVER ? '' : ' (skipped: no redis-server on PATH)'}`,
  () => {
    for (const how of ['shutdown', 'kill'] as const) {
      it(`Redis ${how === 'shutdown' ? 'shut down cleanly' : 'SIGKILLed'}: 503 with a clear page during the outage, 200 again after, no restart`, async () => {
        redis = await startRedisProcess();
        const base = await startDashboard(redis.url);
        await untilEvery(base, 200);
        expect(await statusOf(base, '/healthz')).toEqual({ status: 200, body: 'ok\n' });

        await (how === 'shutdown' ? redis.shutdown() : redis.kill());
        await expectOutagePages(base);
        await new Promise((resolve) => setTimeout(resolve, 1000)); // an outage, not a blip
        await expectOutagePages(base);

        await redis.start();
        await untilEvery(base, 200);
        expect(await statusOf(base, '/healthz')).toEqual({ status: 200, body: 'ok\n' });
        await expectQuietStop(dashboard as CliProcess);
        expect(linesSaying((dashboard as CliProcess).stderr(), /answers again/)).toHaveLength(1);
      }, 40_000);
    }

    it('started while Redis is down: serves the outage page, then the dashboard once Redis is up', async () => {
      redis = await startRedisProcess();
      await redis.shutdown();
      const base = await startDashboard(redis.url);
      await expectOutagePages(base);
      await redis.start();
      await untilEvery(base, 200);
      await expectQuietStop(dashboard as CliProcess);
    }, 40_000);
  },
);
