/**
 * Retrying from the dashboard as an operator does it, in chromium, served by the built CLI:
 * - a run whose creates failed (the simulator failed every write, then healed): the run page
 *   names the service its jobs are for, marks them "another service" when the dashboard is
 *   configured for another one, and after a per-job retry with no worker says so and how to start one;
 * - bull-board shows its times in UTC (the browser is in Chicago) and links back to the dashboard;
 * - `dashboard --work` runs the retried jobs itself: "Retry all failed jobs", and the run ends
 *   done, the no-worker notice gone, every listing on the service; search lists each job once;
 * - a run that created listings says so under "Changes by field", and a refusal with two reasons
 *   reads as two sentences.
 */
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { BOARD_DATE_FORMATS } from '../../src/dashboard/board-page.js';
import { describeTarget } from '../../src/queue/job-seal.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { enqueueAsSync, feedOf, openQueueBench, TEST_JOB_SETTINGS, type QueueBench } from '../helpers/queue.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import { DASHBOARD_PASSWORD, DASHBOARD_USER, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard-process.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-retry-work';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');

let bench: QueueBench | undefined;
let sim: RunningSimulator | undefined;
let browser: Browser | undefined;
let dashboard: DashboardProcess | undefined;
let prefix = '';
let passed = false;

afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await bench?.close(passed);
  await sim?.close();
  if (prefix !== '' && passed) await cleanPrefix(redisUrl, prefix);
  browser = undefined;
  dashboard = undefined;
  bench = undefined;
  sim = undefined;
  prefix = '';
  passed = false;
});

async function operatorPage(): Promise<{ context: BrowserContext; page: Page }> {
  browser ??= await launchChromium();
  // Why Chicago: a page that showed the browser's local time would differ from UTC by hours.
  const context = await browser.newContext({
    httpCredentials: { username: DASHBOARD_USER, password: DASHBOARD_PASSWORD },
    timezoneId: 'America/Chicago',
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  return { context, page: await context.newPage() };
}

/** The run page's status, read after a fresh load. */
async function statusOf(page: Page, url: string): Promise<string> {
  await page.goto(url);
  return (await page.locator('#overview dt:text-is("Status") + dd').innerText()).trim();
}

if (!hasChromium()) console.warn(`dashboard retry browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('retry from the dashboard, in a browser', () => {
  it('names the service of the jobs, shows bull-board in UTC with a way back, and with --work runs the retried jobs to done', async () => {
    const b = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'dash-work');
    bench = b;
    const feed = feedOf(BOT, 0, 3);
    b.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const runId = await enqueueAsSync(b, await b.plan(BOT, feed), { jobs: { ...TEST_JOB_SETTINGS, attempts: 1 } });
    const first = await b.work();
    expect(await waitForRun(b.store, runId, { pollMs: 50 })).toMatchObject({ failedJobs: 3 });
    await first.close();
    b.sim.state.setFaults({});
    const theirs = describeTarget(b.seal.target);
    const runUrl = (url: string) => `${url}/runs/${runId}`;

    // A dashboard configured for another service (its env names one), without a worker.
    const other = { API_BASE_URL: 'http://127.0.0.1:9/other-service', API_SECRET_KEY: 'another-installations-secret' };
    dashboard = await startDashboardProcess(redisUrl, b.prefix, { env: other });
    const { page } = await operatorPage();
    await page.goto(runUrl(dashboard.url));
    const table = page.locator('#failed');
    expect(await table.locator('tbody tr').count()).toBe(3);
    const listing = feed[0];
    const row = table.locator('tbody tr', { hasText: listing?.MLSNumber ?? 'no key' });
    expect(await row.innerText()).toContain(listing?.Address ?? 'no address');
    expect(await row.innerText()).toContain(listing?.City ?? 'no city');
    expect(await row.innerText()).toContain(theirs);
    expect(await table.locator('.elsewhere').count()).toBe(3);
    expect(await page.locator('#run-target').innerText()).toContain(theirs);
    const elsewhere = await page.locator('#elsewhere').innerText();
    expect(elsewhere).toContain(`Jobs of this run are for the service ${theirs}`);
    expect(elsewhere).toContain('http://127.0.0.1:9/other-service');

    // One job retried with no worker: the notice says so and names the command that starts one.
    await row.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(`${runUrl(dashboard.url)}?retried=1`);
    expect(await table.locator('tbody tr').count()).toBe(2);
    const notice = await page.locator('#no-worker').innerText();
    expect(notice).toContain(`no worker is running on prefix ${b.prefix}`);
    expect(notice).toContain(`npx listing-sync worker --prefix ${b.prefix}`);
    expect(notice).toContain('start this dashboard with --work');

    // bull-board: the failed jobs' times in UTC (24-hour, named), and a visible way back.
    const added = (await b.queues.writes.getFailed(0, 0))[0]?.timestamp ?? 0;
    const utc = Object.values(BOARD_DATE_FORMATS).map((format) => new Intl.DateTimeFormat('en-US', format).format(added));
    await page.goto(`${dashboard.url}/queues/queue/listing-writes?status=failed`);
    const times = page.locator('time');
    await expect.poll(() => times.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const shown = await times.allInnerTexts();
    expect(
      shown.some((text) => utc.includes(text.trim())),
      `${shown.join(' | ')} vs ${utc.join(' | ')}`,
    ).toBe(true);
    for (const text of shown) expect(text).not.toMatch(/\b[AP]M\b/);
    await page.screenshot({ path: await artifactPath('dashboard-board-utc.png') });
    const back = page.locator('#dashboard-link');
    expect(await back.isVisible()).toBe(true);
    await back.click();
    await page.waitForURL(`${dashboard.url}/`);
    expect(await page.title()).toBe('Runs · listing-sync');
    await dashboard.stop();

    // The same run on a dashboard started with --work for its own service: it runs the retries itself.
    const own = { ...simEnv(b.sim), LISTING_SYNC_BACKOFF_MS: '5', LISTING_SYNC_BACKOFF_MAX_MS: '50' };
    dashboard = await startDashboardProcess(redisUrl, b.prefix, { args: ['--work'], env: own });
    expect(dashboard.line).toContain('working jobs');
    await page.goto(runUrl(dashboard.url));
    expect(await page.locator('.elsewhere').count()).toBe(0);
    expect(await page.locator('#elsewhere').count()).toBe(0);
    // The job retried earlier runs now; the two others wait for this click.
    expect(await page.locator('#failed tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Retry all failed jobs' }).click();
    await page.waitForURL(`${runUrl(dashboard.url)}?retried=2`);
    await expect.poll(() => statusOf(page, runUrl(dashboard?.url ?? '')), { timeout: 30_000, interval: 250 }).toBe('done');
    expect(await page.locator('#no-worker').count()).toBe(0);
    expect(await page.locator('#no-failed').count()).toBe(1);
    expect(await page.locator('#failed-count').innerText()).toBe('0');
    expect(await page.locator('#plan').innerText()).toMatch(/Created\s+3/);
    expect(
      b.sim.state
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual(feed.map((l) => l.MLSNumber).sort());
    await page.screenshot({ path: await artifactPath('dashboard-retry-work.png'), fullPage: true });

    // Search by key: the job retried twice is listed once.
    await page.goto(`${dashboard.url}/search?key=${encodeURIComponent(listing?.MLSNumber ?? '')}`);
    const jobIds = await page.locator('#touches tbody tr td:last-child').allInnerTexts();
    expect(jobIds).toHaveLength(1);
    passed = true;
  }, 120_000);

  it('says how many listings a run created under Changes by field, and reads a refusal with two reasons as sentences', async () => {
    sim = await startTestSim({ chatbots: [BOT] });
    prefix = uniquePrefix('dash-words');
    const env = cliEnv(sim, redisUrl, prefix);
    const created = await runCli(['sync', '--chatbot', BOT, '--feed', join(FIXTURES, 'listings-0-8.csv'), '--work', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const createdRun = jsonOf<{ runId: string }>(created).runId;
    const refused = await runCli(['sync', '--chatbot', BOT, '--feed', join(FIXTURES, 'listings-0-2.csv'), '--work', '--json'], env);
    expect(refused.code, refused.stderr).toBe(3);
    const refusedRun = jsonOf<{ runId: string }>(refused).runId;

    dashboard = await startDashboardProcess(redisUrl, prefix);
    const { page } = await operatorPage();
    await page.goto(`${dashboard.url}/runs/${createdRun}`);
    const changes = await page.locator('#no-changes').innerText();
    expect(changes).toContain('9 listings created.');
    expect(await page.locator('body').innerText()).not.toContain('No listing changes.');

    await page.goto(`${dashboard.url}/runs/${refusedRun}`);
    const guard = await page.locator('#overview dt:text-is("Guard") + dd').innerText();
    expect(guard).toContain('refused');
    expect(guard).toMatch(/if that is intended\. The feed has 3 rows/);
    expect(guard).not.toMatch(/\.;|;\s*The feed/);
    await page.goto(`${dashboard.url}/`);
    const title = await page.locator('span.bad[title]').first().getAttribute('title');
    expect(title).not.toContain('.;');
    passed = true;
  }, 120_000);
});
