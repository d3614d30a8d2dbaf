/**
 * Hosted photos as an operator sees them: a `sync --replicate --work` with a file media store
 * against the RESO simulator's media host, one photo of which hangs; then the built dashboard.
 * - the run page's Photos card says hosted, reused and not fetched, and lists the photo not
 *   fetched by host and reason with what happens next, in words (chromium);
 * - /metrics counts the downloads, their bytes and the failure by reason, as the run did;
 * - a chatbot's Photos page shows its listings' hosted photos as images the browser loads from the
 *   media base URL (a web server over the file store, the demo's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_REASON, artifactPath, hasChromium, launchChromium } from '../helpers/browser.js';
import { resoFixtures, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf } from '../helpers/run-cli.js';
import { startDemoPhotos, type DemoPhotos } from '../../src/cli/demo/demo-photos.js';
import { DASHBOARD_PASSWORD, DASHBOARD_USER, startDashboardProcess, type DashboardProcess } from '../helpers/dashboard-process.js';

const BOT = 'bot-photos-page';
const BASE = 'https://photos.brokerage.test/p';
const start = resoFixtures();
let browser: Browser | undefined;
let dashboard: DashboardProcess | undefined;
let served: DemoPhotos | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await browser?.close();
  await dashboard?.stop();
  await served?.close();
  browser = undefined;
  dashboard = undefined;
  served = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type WithPhotos = Replicated & { replication: { photos: { hosted: number; notFetched: number; bytes: number } } };

/** The value of one sample line of the exposition (`name` with its labels, as written). */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

if (!hasChromium()) console.warn(`dashboard photos browser test skipped: ${SKIP_REASON}`);

describe.skipIf(!hasChromium())('hosted photos on the dashboard', () => {
  it('the run page shows photos hosted, reused and not fetched (by host and reason, with what next); /metrics counts them', async () => {
    const f = await start({ chatbots: [BOT], records: 6, photos: 2, label: 'browser-photos' });
    f.reso.state.media.configure({ enabled: true });
    const [stuckKey = ''] = f.keys();
    const stuck = f.reso.state.records.get(stuckKey)?.media[0]?.MediaKey ?? '';
    f.reso.state.media.configure({ hang: [stuck] });
    const dir = mkdtempSync(join(tmpdir(), 'ls-photos-page-'));
    dirs.push(dir);
    const env = {
      LISTING_SYNC_MEDIA_STORE: pathToFileURL(dir).href,
      LISTING_SYNC_MEDIA_BASE_URL: BASE,
      LISTING_SYNC_MEDIA_TIMEOUT: '1s',
      LOG_LEVEL: 'warn',
    };
    const run = await f.replicate(BOT, { env });
    expect(run.code, run.stderr).toBe(0);
    const out = jsonOf<WithPhotos>(run);
    expect(out.replication.photos).toMatchObject({ hosted: 11, notFetched: 1 });
    const mediaHost = new URL(f.reso.baseUrl).host;

    dashboard = await startDashboardProcess(f.env().REDIS_URL ?? '', f.prefix);
    const { url } = dashboard;
    browser = await launchChromium();
    const context = await browser.newContext({ httpCredentials: { username: DASHBOARD_USER, password: DASHBOARD_PASSWORD } });
    const page = await context.newPage();
    const response = await page.goto(`${url}/runs/${out.runId}`);
    expect(response?.status()).toBe(200);
    const card = page.locator('#photos');
    expect(await card.locator('dd[data-field="hosted"]').innerText()).toBe('11 downloaded and stored by this run');
    expect(await card.locator('dd[data-field="reused"]').innerText()).toBe('0 hosted already (no download)');
    expect(await card.locator('dd[data-field="notFetched"]').innerText()).toBe(
      '1 photo: its listing shows the others; it is fetched again by the next run',
    );
    expect(await card.locator('dd[data-field="bytes"]').innerText()).toContain(
      `${out.replication.photos.bytes.toLocaleString('en-US')} bytes`,
    );
    const rows = card.locator('#photos-not-fetched tbody tr');
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('td').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual([mediaHost, 'timeout', '1']);
    expect(cells[3]).toContain('--media-timeout');
    expect(cells[3]).toContain('fetched again by the next run');
    // The pull's card no longer carries the photos as a run-on line.
    expect(await page.locator('#replication').innerText()).not.toMatch(/photos/i);
    await page.screenshot({ path: await artifactPath('dashboard-photos-run.png'), fullPage: true });

    const auth = `Basic ${Buffer.from(`${DASHBOARD_USER}:${DASHBOARD_PASSWORD}`).toString('base64')}`;
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: auth } })).text();
    expect(metrics).toContain('# TYPE listing_sync_photo_downloads_total counter');
    expect(sample(metrics, 'listing_sync_photo_downloads_total')).toBe(11);
    expect(sample(metrics, 'listing_sync_photo_download_bytes_total')).toBe(out.replication.photos.bytes);
    expect(sample(metrics, 'listing_sync_photo_download_failures_total{reason="timeout"}')).toBe(1);
    expect(sample(metrics, 'listing_sync_photo_download_failures_total{reason="connection"}')).toBe(0);
    // Bounded labels: the reason only, never the media host.
    expect(metrics).not.toContain(mediaHost);
  }, 120_000);

  it("the chatbot's Photos page shows each listing's hosted photos as images from the base URL (the CSP lets them load)", async () => {
    const f = await start({ chatbots: [BOT], records: 3, photos: 2, label: 'browser-photos-page' });
    f.reso.state.media.configure({ enabled: true });
    served = await startDemoPhotos();
    const env = { LISTING_SYNC_MEDIA_STORE: served.storeUrl, LISTING_SYNC_MEDIA_BASE_URL: served.baseUrl, LOG_LEVEL: 'warn' };
    const run = await f.replicate(BOT, { env });
    expect(run.code, run.stderr).toBe(0);
    const held = f.sim.state.listings(BOT).flatMap((listing) => listing.Images ?? []);
    expect(held).toHaveLength(6);

    dashboard = await startDashboardProcess(f.env().REDIS_URL ?? '', f.prefix, { env });
    browser = await launchChromium();
    const context = await browser.newContext({ httpCredentials: { username: DASHBOARD_USER, password: DASHBOARD_PASSWORD } });
    const page = await context.newPage();
    const loaded: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${served?.baseUrl ?? '-'}/`) && response.status() === 200) loaded.push(response.url());
    });
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto(`${dashboard.url}/chatbots/${BOT}`);
    await page.getByRole('link', { name: 'Photos of its listings' }).click();
    expect(await page.title()).toBe(`Photos of ${BOT} · listing-sync`);
    expect(await page.locator('#listing-photos tbody tr').count()).toBe(3);
    const sources = await page
      .locator('img.photo')
      .evaluateAll((images: ReadonlyArray<{ getAttribute(name: string): string | null }>) =>
        images.map((image) => image.getAttribute('src') ?? ''),
      );
    expect(new Set(sources)).toEqual(new Set(held));
    await expect.poll(() => new Set(loaded).size, { timeout: 10_000 }).toBe(6);
    expect(blocked).toEqual([]);
    await page.screenshot({ path: await artifactPath('dashboard-photos-listings.png'), fullPage: true });
  }, 120_000);
});
