/**
 * The dashboard in a real browser (Debian chromium via playwright-core), served by the built
 * `listing-sync dashboard` as a process over the same Redis as a run made against the simulator:
 * without credentials every page is 401; with basic auth an operator opens the failed run, sees
 * Code and Message, clicks "Retry all failed jobs", and watches the jobs complete. Screenshots
 * go to test-artifacts/. With no worker running, the run page's failed table names each
 * listing's address and city and retries one job; a notice says no worker runs on the prefix
 * and how to start one, until a worker ends the run; search by key lists the job once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { seedFailedRun } from '../helpers/dashboard.js';
import { enqueueAsSync, feedOf, openQueueBench, TEST_JOB_SETTINGS, type QueueBench } from '../helpers/queue.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { CLI_ENTRY } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-browser';
const USER = 'ops';
const PASSWORD = 'browser-test-password-7';

let bench: QueueBench | undefined;
let browser: Browser | undefined;
let child: ChildProcess | undefined;
let passed = false;

afterEach(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await bench?.close(passed);
  browser = undefined;
  child = undefined;
  bench = undefined;
  passed = false;
});

/** Starts `listing-sync dashboard` on a free port; resolves with its URL from the first stdout line. */
async function startDashboardProcess(prefix: string): Promise<string> {
  const proc = spawn(process.execPath, [CLI_ENTRY, 'dashboard', '--port', '0', '--redis-url', redisUrl, '--prefix', prefix], {
    env: { PATH: process.env.PATH ?? '', DASHBOARD_USER: USER, DASHBOARD_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`dashboard exited early with ${String(code)}: ${stderr}`)));
  });
  const match = /^listing-sync dashboard listening on (http:\/\/127\.0\.0\.1:\d+)\/ \(credentials required, read-write\)$/.exec(line);
  if (!match?.[1]) throw new Error(`unexpected first line: ${line}`);
  return match[1];
}

if (!hasChromium()) console.warn(`dashboard browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('dashboard in a browser', () => {
  it('refuses a visitor without credentials, and lets an operator retry a failed run until its jobs complete', async () => {
    bench = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'browser');
    const { runId, keys } = await seedFailedRun(bench, BOT, 2);
    const url = await startDashboardProcess(bench.prefix);
    browser = await launchChromium();

    const anonymous = await browser.newContext();
    const anonymousPage = await anonymous.newPage();
    const statuses: number[] = [];
    anonymousPage.on('response', (response) => statuses.push(response.status()));
    for (const path of ['/', `/runs/${runId}`, '/queues/']) {
      // The browser gets the 401 challenge; with no credentials to offer it abandons the page.
      const navigation = await anonymousPage.goto(`${url}${path}`).then(
        (response) => response?.status(),
        (error: Error) => error.message,
      );
      expect(String(navigation), path).toMatch(/^401$|ERR_INVALID_AUTH_CREDENTIALS/);
    }
    expect(statuses).toEqual([401, 401, 401]);
    await anonymous.close();

    const context = await browser.newContext({
      httpCredentials: { username: USER, password: PASSWORD },
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    expect((await page.goto(`${url}/`))?.status()).toBe(200);
    await page.getByRole('link', { name: runId }).click();
    await page.waitForURL(`${url}/runs/${runId}`);
    const failedTable = page.locator('#failed');
    await expect.poll(() => failedTable.locator('tbody tr').count()).toBe(2);
    expect(await failedTable.innerText()).toContain('Internal error, try again');
    expect(await failedTable.innerText()).toContain('ENVELOPE_FAILURE 500');

    bench.sim.state.setFaults({});
    await page.getByRole('button', { name: 'Retry all failed jobs' }).click();
    await page.waitForURL(`${url}/runs/${runId}?retried=2`);
    expect(await page.locator('#flash').innerText()).toContain('Re-queued 2 failed job(s)');

    await expect
      .poll(
        async () => {
          await page.reload();
          return await page.locator('#no-failed').count();
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(1);
    const result = await page.locator('#plan').innerText();
    expect(result).toMatch(/Created\s+2/);
    expect(result).toMatch(/Failed\s+0/);
    expect(
      bench.sim.state
        .listings(BOT)
        .map((l) => l.MLSNumber)
        .sort(),
    ).toEqual([...keys].sort());
    await page.screenshot({ path: await artifactPath('dashboard-run.png'), fullPage: true });

    // bull-board works under its own CSP: the writes queue lists the run's completed jobs, and
    // the only thing the policy blocks is its web-font stylesheet from another origin.
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text()) && !message.text().includes('fonts.googleapis.com')) blocked.push(message.text());
    });
    await page.goto(`${url}/queues/queue/listing-writes?status=completed`);
    await expect.poll(() => page.getByText(`create.${BOT}`, { exact: false }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(blocked).toEqual([]);
    await page.screenshot({ path: await artifactPath('dashboard-queues.png') });

    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
    passed = true;
  }, 90_000);

  it('address, city and a per-job retry; the no-worker notice until a worker ends the run; search lists each job once', async () => {
    const b = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'retrypage');
    bench = b;
    const feed = feedOf(BOT, 0, 2);
    b.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const runId = await enqueueAsSync(b, await b.plan(BOT, feed), { jobs: { ...TEST_JOB_SETTINGS, attempts: 1 } });
    const first = await b.work();
    expect(await waitForRun(b.store, runId, { pollMs: 50 })).toMatchObject({ failedJobs: 2 });
    await first.close();
    b.sim.state.setFaults({});

    const url = await startDashboardProcess(b.prefix);
    browser = await launchChromium();
    const context = await browser.newContext({ httpCredentials: { username: USER, password: PASSWORD } });
    const page = await context.newPage();
    await page.goto(`${url}/runs/${runId}`);
    const table = page.locator('#failed');
    expect(await table.locator('tbody tr').count()).toBe(2);
    const listing = feed[0];
    expect(await table.innerText()).toContain(listing?.Address ?? 'no address');
    expect(await table.innerText()).toContain(listing?.City ?? 'no city');
    expect(await page.locator('#no-worker').count()).toBe(0);

    const row = table.locator('tbody tr', { hasText: listing?.MLSNumber ?? '' });
    await row.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(`${url}/runs/${runId}?retried=1`);
    expect(await table.locator('tbody tr').count()).toBe(1);
    const notice = await page.locator('#no-worker').innerText();
    expect(notice).toContain(`no worker is running on prefix ${b.prefix}`);
    expect(notice).toContain(`npx listing-sync worker --prefix ${b.prefix}`);

    await b.work();
    await page.getByRole('button', { name: 'Retry all failed jobs' }).click();
    await expect
      .poll(
        async () => {
          await page.goto(`${url}/runs/${runId}`);
          return (await page.locator('#no-failed').count()) + (await page.locator('#no-worker').count()) * 10;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(1);
    expect(await page.locator('#overview').innerText()).toMatch(/Status\s+done/);

    await page.goto(`${url}/search?key=${encodeURIComponent(listing?.MLSNumber ?? '')}`);
    const jobIds = await page.locator('#touches tbody tr td:last-child').allInnerTexts();
    expect(jobIds.length).toBeGreaterThan(0);
    expect(new Set(jobIds).size).toBe(jobIds.length);
    passed = true;
  }, 90_000);
});
