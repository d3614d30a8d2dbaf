/**
 * The Fleet page in chromium, served by the built CLI's dashboard over a real Redis where the
 * built CLI applied a fleet.yaml and synced one of its chatbots: every chatbot is listed under its
 * source (the feed without credentials), with its filter in words, its schedule, its last run
 * (linked) and its status; the page is words (no JSON, no camelCase keys). The runs page has a
 * Source column. Without a fleet the page says how to apply one.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { installFleet, type FleetInstallation } from '../helpers/fleet-display.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { DASHBOARD_PASSWORD, DASHBOARD_USER, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard-process.js';

const redisUrl = inject('redisUrl');
let browser: Browser | undefined;
let dashboard: DashboardProcess | undefined;
let installation: FleetInstallation | undefined;
let passed = false;

afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await installation?.close(passed);
  browser = undefined;
  dashboard = undefined;
  installation = undefined;
  passed = false;
});

async function openPage(url: string): Promise<Page> {
  browser = await launchChromium();
  const context = await browser.newContext({
    httpCredentials: { username: DASHBOARD_USER, password: DASHBOARD_PASSWORD },
    viewport: { width: 1400, height: 900 },
  });
  const page = await context.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return page;
}

/** The text of the row of `chatbot` on the fleet page, its cells separated by tabs. */
async function rowText(page: Page, chatbot: string): Promise<string> {
  return await page.locator(`#fleet tr[data-chatbot="${chatbot}"]`).innerText();
}

/** The attribute `name` of every element `locator` finds, in page order. */
async function attributes(locator: Locator, name: string): Promise<Array<string | null>> {
  return await Promise.all((await locator.all()).map((item) => item.getAttribute(name)));
}

if (!hasChromium()) console.warn(`dashboard fleet browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('the Fleet page in a browser', () => {
  it('lists every chatbot under its source with its filter in words, schedule, last run and status', async () => {
    installation = await installFleet(redisUrl, 'browser-fleet');
    dashboard = await startDashboardProcess(redisUrl, installation.prefix);
    const page = await openPage(`${dashboard.url}/`);
    await page.getByRole('link', { name: 'Fleet', exact: true }).click();
    await page.waitForURL(`${dashboard.url}/fleet`);
    expect(await page.title()).toBe('Fleet · listing-sync');
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\{"|"\s*:|\[\]|\[\{/);
    for (const key of ['ListPrice":', 'gte', 'webhookEnv', 'replicate', 'lastRun', 'startedAt']) expect(text).not.toContain(key);
    expect(await page.locator('#fleet-summary').innerText()).toBe('3 chatbots on 2 sources.');

    // Grouped by source: each group names its source, its chatbots and its feed.
    const groups = page.locator('#fleet tbody');
    expect(await attributes(groups, 'data-source')).toEqual(['acme-file', 'mred']);
    expect(await groups.nth(1).locator('tr.group').innerText()).toBe('Source mred · 2 chatbots · https://mls.example/odata/Property');
    expect(await attributes(groups.nth(1).locator('tr[data-chatbot]'), 'data-chatbot')).toEqual(['acme-bot', 'beta-bot']);

    const acme = await rowText(page, 'acme-bot');
    expect(acme).toContain('mred');
    expect(acme).toContain('ListOfficeMlsId is ACME1 or ACME2');
    expect(acme).toContain('*/30 * * * * America/Chicago');
    expect(acme).toContain('no run yet');
    expect(acme).toContain('unknown');
    expect(await rowText(page, 'beta-bot')).toContain('City is Evanston; ListPrice ≥ 200,000');

    const gamma = await rowText(page, 'gamma-bot');
    expect(gamma).toContain('acme-file');
    expect(gamma).toContain('every record');
    expect(gamma).toMatch(/0 2 \* \* \* America\/New_York\s+next \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/);
    expect(gamma).toContain(installation.gammaRun);
    expect(gamma).toMatch(/\bdone\b/);
    expect(gamma).toContain('healthy');
    await page.screenshot({ path: await artifactPath('dashboard-fleet.png'), fullPage: true });

    // The last run links to its run page.
    await page.locator('#fleet tr[data-chatbot="gamma-bot"]').getByRole('link', { name: installation.gammaRun }).click();
    await page.waitForURL(`${dashboard.url}/runs/${installation.gammaRun}`);

    // The runs page names each run's source; the chatbot outside the fleet has none.
    await page.goto(`${dashboard.url}/`);
    const headers = await page.locator('#runs thead th').allInnerTexts();
    const sourceColumn = headers.map((header) => header.toLowerCase()).indexOf('source');
    expect(sourceColumn).toBe(2);
    const sourceOf = async (runId: string): Promise<string> =>
      await page.locator('#runs tbody tr', { hasText: runId }).locator('td').nth(sourceColumn).innerText();
    expect(await sourceOf(installation.gammaRun)).toBe('acme-file');
    expect(await sourceOf(installation.soloRun)).toBe('none');
    passed = true;
  }, 240_000);

  it('says how to apply a fleet when none was applied', async () => {
    const prefix = uniquePrefix('browser-fleet-empty');
    dashboard = await startDashboardProcess(redisUrl, prefix);
    const page = await openPage(`${dashboard.url}/fleet`);
    expect(await page.locator('#fleet-empty').innerText()).toContain('listing-sync fleet apply fleet.yaml');
    expect(await page.locator('#fleet').count()).toBe(0);
    // Nor does an installation without a fleet get a Source column on the runs page (it has no runs).
    await page.goto(`${dashboard.url}/`);
    expect(await page.locator('main').innerText()).toContain('No runs recorded yet');
    await cleanPrefix(redisUrl, prefix);
  }, 60_000);
});
