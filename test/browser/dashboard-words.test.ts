/**
 * The dashboard as an operator reads it, in chromium, served by the built CLI (the bundle users
 * run) over runs the built CLI made against the simulators: a `--replicate` pull, a Redfin export
 * synced with defaults filled in, and a run whose two creates failed for good.
 * - every page (runs, health, alerts, run pages, chatbot, bull-board's failed jobs) is UTF-8 and its
 *   "·" arrives as itself, never as "?";
 * - no page shows JSON or a summary's camelCase keys: figures are labelled words;
 * - a chart fills its panel, its x labels are distinct, and 2 failures beside hundreds of creates show;
 * - right after "Retry all failed jobs" the Failed count and the failed list agree, and the page
 *   follows the re-queued jobs to their end without a reload.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { resoFixtures, type Replicated } from '../helpers/reso-fixture.js';
import { CLI_ENTRY, jsonOf, runCli } from '../helpers/run-cli.js';
import {
  DASHBOARD_PASSWORD,
  DASHBOARD_USER,
  startDashboardProcess,
  stopChild,
  type DashboardProcess,
} from '../helpers/dashboard-process.js';

const RESO_BOT = 'bot-words-reso';
const CSV_BOT = 'bot-words-csv';
const EXPORT = resolve(import.meta.dirname, '../../fixtures/redfin/export-chicago-shaped.csv');
/** Summary keys an operator must never read (they are shown as labelled words). */
const RAW_KEYS = ['filledDefaults', 'incompleteReasons', 'virtualCount', 'recordsPulled', 'deletesWithheld', 'allowWipe'];

const start = resoFixtures();
let browser: Browser | undefined;
let dashboard: DashboardProcess | undefined;
let worker: ChildProcess | undefined;

afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await stopChild(worker);
  browser = undefined;
  dashboard = undefined;
  worker = undefined;
});

interface Synced {
  runId: string;
  feed: { filledDefaults: Record<string, number> };
  result?: { created: number; failed: number };
}

/** Opens `path` and checks what any page must hold: UTF-8, its title's "·", no "?" or JSON in its text. */
async function expectWords(page: Page, url: string, path: string): Promise<string> {
  const response = await page.goto(`${url}${path}`);
  expect(response?.status(), path).toBe(200);
  expect(response?.headers()['content-type'], path).toMatch(/charset=utf-8/i);
  expect(await page.title(), path).toMatch(/^\S.* · listing-sync$/);
  const text = await page.locator('body').innerText();
  expect(text, path).not.toContain('?');
  expect(text, path).not.toContain('\uFFFD');
  expect(text, path).not.toMatch(/\{"|"\s*:|\[\]|\[\{/);
  for (const key of RAW_KEYS) expect(text, path).not.toContain(key);
  return text;
}

/** The figure a run page shows under `label` in the card `card`. */
async function figure(page: Page, card: string, label: string): Promise<string> {
  return await page.locator(`#${card} dt:text-is("${label}") + dd`).innerText();
}

if (!hasChromium()) console.warn(`dashboard words browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('dashboard in words, in a browser', () => {
  it('shows every page in UTF-8 words, charts that fill their panel, and counts that agree with the list after a retry', async () => {
    const f = await start({ chatbots: [RESO_BOT, CSV_BOT], records: 12, reso: { maxTop: 5 }, label: 'browser-words' });
    const env = f.env({ LOG_LEVEL: 'warn', LISTING_SYNC_ATTEMPTS: '2', LISTING_SYNC_BACKOFF_MS: '5', LISTING_SYNC_BACKOFF_MAX_MS: '50' });
    const pulled = await f.replicate(RESO_BOT, { env: { LOG_LEVEL: 'warn' } });
    expect(pulled.code, pulled.stderr).toBe(0);
    const replication = jsonOf<Replicated & { replication: { bytes: number } }>(pulled);

    const csvSync = () => runCli(['sync', '--chatbot', CSV_BOT, '--feed', EXPORT, '--profile', 'redfin', '--work', '--json'], env, 120_000);
    const first = await csvSync();
    expect([0, 1], first.stderr).toContain(first.code);
    const firstRun = jsonOf<Synced>(first);
    expect(Object.keys(firstRun.feed.filledDefaults).length).toBeGreaterThan(0);
    // Two listings vanish from the service and their re-creates fail for good: 2 failures beside hundreds of creates.
    const vanished = f.sim.state
      .listings(CSV_BOT)
      .slice(0, 2)
      .map((listing) => listing.MLSNumber);
    f.sim.state.remove(CSV_BOT, (listing) => vanished.includes(listing.MLSNumber));
    f.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const failing = await csvSync();
    expect(failing.code, failing.stderr).toBe(1);
    const failedRun = jsonOf<Synced>(failing);
    expect(failedRun.result?.failed).toBe(2);
    f.sim.state.setFaults({});

    dashboard = await startDashboardProcess(env.REDIS_URL ?? '', f.prefix);
    const { url } = dashboard;
    browser = await launchChromium();
    const context = await browser.newContext({
      httpCredentials: { username: DASHBOARD_USER, password: DASHBOARD_PASSWORD },
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();

    await expectWords(page, url, '/');
    expect(await page.title()).toBe('Runs · listing-sync');
    await expectWords(page, url, '/health');
    await expectWords(page, url, '/alerts');

    // A Redfin run: its feed and remote figures as labelled words.
    await expectWords(page, url, `/runs/${firstRun.runId}`);
    const filled = Object.entries(firstRun.feed.filledDefaults)
      .map(([field, n]) => `${field} ${n.toLocaleString('en-US')} listings`)
      .join(', ');
    expect(await figure(page, 'feed', 'Defaults filled')).toBe(filled);
    expect(await figure(page, 'feed', 'Profile')).toBe('redfin');
    expect(await figure(page, 'remote', 'Read completely')).toBe('yes');
    expect(await page.locator('#remote dt:text-is("Why incomplete")').count()).toBe(0);
    await page.screenshot({ path: await artifactPath('dashboard-words-run.png'), fullPage: true });

    // A replication run: what it pulled and where its watermark stands.
    await expectWords(page, url, `/runs/${replication.runId}`);
    expect(await figure(page, 'replication', 'Records pulled')).toBe('12');
    expect(await figure(page, 'replication', 'Requests')).toBe(String(replication.replication.requests));
    expect(await figure(page, 'replication', 'Data received')).toContain(`${replication.replication.bytes.toLocaleString('en-US')} bytes`);
    expect(await figure(page, 'replication', 'Watermark now')).toBe(replication.replication.watermark);
    expect(await figure(page, 'replication', 'Pull')).toBe('done');

    // The chatbot page: its links' "·", a chart as wide as its panel, distinct x labels, the small bar drawn.
    const chatbotText = await expectWords(page, url, `/chatbots/${CSV_BOT}`);
    expect(chatbotText).toContain('All its runs · Health of every chatbot');
    const chart = page.locator('#runs-chart');
    const chartBox = await chart.boundingBox();
    const panelBox = await page.locator('figure.chart:has(#runs-chart)').boundingBox();
    expect((chartBox?.width ?? 0) / (panelBox?.width ?? 1)).toBeGreaterThan(0.95);
    const labels = await chart.locator('g.bar text').allTextContents();
    expect(labels).toHaveLength(2);
    expect(new Set(labels).size).toBe(labels.length);
    const failedBar = chart.locator(`g.bar[data-id="${failedRun.runId}"] rect.segment[data-series="failed"]`);
    expect(await failedBar.getAttribute('data-value')).toBe('2');
    expect((await failedBar.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(3);
    await chart.screenshot({ path: await artifactPath('dashboard-words-chart.png') });

    // The failed jobs in bull-board (its own UI, served beside the bundle): the reasons arrive whole.
    await page.goto(`${url}/queues/queue/listing-writes?status=failed`);
    await expect.poll(() => page.getByText('ENVELOPE_FAILURE 500', { exact: false }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const boardText = await page.locator('body').innerText();
    expect(boardText).not.toContain('\uFFFD');
    expect(boardText).not.toMatch(/\w\?\w/);

    // The failed run: retry all, then the count and the list agree at once (no worker runs yet).
    await expectWords(page, url, `/runs/${failedRun.runId}`);
    expect(await page.locator('#failed tbody tr').count()).toBe(2);
    expect(await page.locator('#failed-count').innerText()).toBe('2');
    await page.getByRole('button', { name: 'Retry all failed jobs' }).click();
    await page.waitForURL(`${url}/runs/${failedRun.runId}?retried=2`);
    expect(await page.locator('#failed-count').innerText()).toBe('0 (2 re-queued, running again)');
    expect(await page.locator('#failed tbody tr').count()).toBe(0);
    expect(await page.locator('#no-failed').innerText()).toContain('No failed jobs.');
    expect(await page.locator('body').innerText()).not.toContain('?');

    // A worker takes the re-queued jobs; the page follows them by itself (it reloads while they run).
    worker = spawn(process.execPath, [CLI_ENTRY, 'worker'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
    await expect
      .poll(
        async () =>
          await page
            .locator('#failed-count')
            .innerText()
            .catch(() => ''),
        { timeout: 60_000, interval: 500 },
      )
      .toBe('0');
    expect(await page.locator('#failed tbody tr').count()).toBe(0);
    expect(f.mlsNumbers(CSV_BOT)).toEqual(expect.arrayContaining(vanished));
    await page.screenshot({ path: await artifactPath('dashboard-words-retried.png'), fullPage: true });
  }, 240_000);
});
