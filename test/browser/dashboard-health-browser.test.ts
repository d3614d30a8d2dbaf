/**
 * The health page and a chatbot's charts in a real browser (Debian chromium via playwright-core),
 * served by the built `listing-sync dashboard` over runs the built CLI made against the simulator:
 * the failing chatbot stands out, the SVG bars carry exactly the run records' numbers, the alerts
 * page shows the webhook masked. Screenshots go to test-artifacts/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Locator } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { CLI_ENTRY, jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const GOOD = 'bot-healthy';
const BAD = 'bot-failing';
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sync');
const NINE = join(FIXTURES, 'listings-0-8.csv');
const THREE = join(FIXTURES, 'listings-0-2.csv');
const USER = 'ops';
const PASSWORD = 'health-browser-password-3';
const HOOK_TOKEN = 'xoxHealthBrowserHookSecret77';

let sim: RunningSimulator | undefined;
let receiver: WebhookReceiver | undefined;
let browser: Browser | undefined;
let child: ChildProcess | undefined;
let prefix = '';

afterEach(async (ctx) => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child?.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  await sim?.close();
  await receiver?.close();
  if (prefix !== '' && (ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(redisUrl, prefix);
  browser = undefined;
  child = undefined;
  sim = undefined;
  receiver = undefined;
  prefix = '';
});

async function startDashboardProcess(): Promise<string> {
  const proc = spawn(process.execPath, [CLI_ENTRY, 'dashboard', '--port', '0', '--redis-url', redisUrl, '--prefix', prefix], {
    env: { PATH: process.env.PATH ?? '', DASHBOARD_USER: USER, DASHBOARD_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: proc.stdout }).once('line', done);
    proc.once('exit', (code) => fail(new Error(`dashboard exited early with ${String(code)}: ${stderr}`)));
  });
  const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(line);
  if (!match?.[1]) throw new Error(`unexpected first line: ${line}`);
  return match[1];
}

interface ChartBar {
  id: string | null;
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  segments: string[];
}

/** The numbers every bar group of a chart carries (data attributes), and its drawn segments. */
async function barsOf(groups: Locator): Promise<ChartBar[]> {
  const bars: ChartBar[] = [];
  for (const g of await groups.all()) {
    const number = async (name: string): Promise<number> => Number(await g.getAttribute(name));
    const segments: string[] = [];
    for (const rect of await g.locator('rect.segment').all())
      segments.push(`${(await rect.getAttribute('data-series')) ?? ''}=${(await rect.getAttribute('data-value')) ?? ''}`);
    bars.push({
      id: await g.getAttribute('data-id'),
      created: await number('data-created'),
      updated: await number('data-updated'),
      deleted: await number('data-deleted'),
      failed: await number('data-failed'),
      segments,
    });
  }
  return bars;
}

interface RunRow {
  id: string;
  status: string;
  counts: { created: number; updated: number; deleted: number; failed: number };
}

if (!hasChromium()) console.warn(`dashboard health browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('health page and charts in a browser', () => {
  it('shows the failing chatbot first and marked, and bars whose numbers are the run records', async () => {
    prefix = uniquePrefix('health-browser');
    sim = await startTestSim({
      chatbots: [GOOD, BAD],
      listings: { [GOOD]: [0, 1, 2, 3, 4, 5].map((i) => sampleListing(i)), [BAD]: [0, 1, 2, 3, 4, 5].map((i) => sampleListing(i)) },
    });
    receiver = await startWebhookReceiver();
    const env = cliEnv(sim, redisUrl, prefix, { LISTING_SYNC_ATTEMPTS: '2' });
    expect((await runCli(['alerts', 'add', 'ops', '--webhook', `${receiver.url}/${HOOK_TOKEN}`, '--format', 'slack'], env)).code).toBe(0);
    const sync = (bot: string, feed: string, ...flags: string[]) =>
      runCli(['sync', '--chatbot', bot, '--feed', feed, '--work', ...flags], env, 40_000);
    // GOOD: creates 3, then a forced run that deletes 6, then nothing to do.
    expect((await sync(GOOD, NINE)).code).toBe(0);
    expect((await sync(GOOD, THREE, '--force')).code).toBe(0);
    expect((await sync(GOOD, THREE)).code).toBe(0);
    // BAD: creates 3, then every create fails for good.
    expect((await sync(BAD, NINE)).code).toBe(0);
    sim.state.remove(BAD, (listing) => ['ML100006', 'ML100007'].includes(listing.MLSNumber));
    sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    expect((await sync(BAD, NINE)).code).toBe(1);
    sim.state.setFaults({});

    const url = await startDashboardProcess();
    browser = await launchChromium();
    const context = await browser.newContext({
      httpCredentials: { username: USER, password: PASSWORD },
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();

    expect((await page.goto(`${url}/health`))?.status()).toBe(200);
    const rows = page.locator('#health tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-chatbot')).toBe(BAD);
    expect(await rows.nth(0).getAttribute('data-status')).toBe('failed');
    expect(await rows.nth(0).getAttribute('class')).toContain('attention');
    expect(await rows.nth(1).getAttribute('data-status')).toBe('healthy');
    expect(await rows.nth(1).getAttribute('class')).not.toContain('attention');
    expect(await rows.nth(1).innerText()).toMatch(/\t3$/); // GOOD: three successful runs in a row
    expect(await page.locator('#health-summary').innerText()).toBe('1 of 2 chatbot(s) need attention.');
    await page.screenshot({ path: await artifactPath('dashboard-health.png'), fullPage: true });

    for (const bot of [GOOD, BAD]) {
      await page.goto(`${url}/health`);
      await page.getByRole('link', { name: bot, exact: true }).click();
      await page.waitForURL(`${url}/chatbots/${bot}`);
      const records = jsonOf<{ runs: RunRow[] }>(await runCli(['runs', 'list', '--chatbot', bot, '--json'], env)).runs;
      const bars = await barsOf(page.locator('#runs-chart g.bar'));
      // Oldest first in the chart; every run of the record, each bar with the run's numbers.
      const expected = [...records].reverse().map((run) => ({ id: run.id, ...run.counts }));
      expect(bars.map(({ segments: _segments, ...numbers }) => numbers)).toEqual(
        expected.map(({ id, created, updated, deleted, failed }) => ({ id, created, updated, deleted, failed })),
      );
      for (const bar of bars) {
        const shown = (['created', 'updated', 'deleted', 'failed'] as const)
          .filter((kind) => bar[kind] > 0)
          .map((kind) => `${kind}=${bar[kind]}`);
        expect(bar.segments).toEqual(shown);
      }
      // Drawn: a visible bar is taller the more it counts.
      const box = await page.locator('#runs-chart').boundingBox();
      expect(box?.height).toBeGreaterThan(100);
      await page.locator('#runs-chart').screenshot({ path: await artifactPath(`dashboard-chart-${bot}.png`) });
    }
    // BAD's failures chart: today's bar holds its two failed keys under the envelope Code.
    const today = new Date().toISOString().slice(0, 10);
    const failureBar = page.locator(`#failures-chart g.bar[data-id="${today}"] rect.segment`);
    expect(await failureBar.getAttribute('data-value')).toBe('2');
    expect(await page.locator('#failures-chart figcaption, figure:has(#failures-chart) figcaption').first().innerText()).toContain(
      'ENVELOPE_FAILURE 500',
    );
    await page.screenshot({ path: await artifactPath('dashboard-chatbot.png'), fullPage: true });

    await page.goto(`${url}/alerts`);
    const configs = await page.locator('#alert-configs').innerText();
    expect(configs).toContain(`${receiver.url}/***`);
    await expect.poll(() => page.locator('#alert-deliveries tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#alert-deliveries').innerText()).toContain('failed');
    expect(await page.content()).not.toContain(HOOK_TOKEN);
    await page.screenshot({ path: await artifactPath('dashboard-alerts.png'), fullPage: true });
  }, 120_000);
});
