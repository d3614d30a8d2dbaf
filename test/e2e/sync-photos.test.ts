/**
 * Hosted photos end to end: `sync --replicate --work` as a process with a file media store, the
 * RESO simulator's media host (signed URLs, the User-Agent-is-the-token rule, a hanging host), the
 * service simulator's write log and real Redis. Outcomes only: what the chatbot holds, what the
 * store holds (by sha256), what the media host served.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resoFixtures, type ResoFixture, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import {
  expectNoMediaHostWritten,
  expectStoreHoldsSourceBytes,
  expectedImages as expectedHosted,
  heldImages as held,
  tempDirs,
  type PhotoCounts,
} from '../helpers/hosted-photos.js';

const BOT = 'bot-photos';
const BASE = 'https://photos.brokerage.test/listing-photos';
const start = resoFixtures();
const tempDir = tempDirs();
type WithPhotos = Replicated & { replication: Replicated['replication'] & { photos?: PhotoCounts } };

async function setUp(): Promise<{ f: ResoFixture; dir: string; env: Record<string, string> }> {
  const f = await start({ chatbots: [BOT], records: 20, photos: 3, reso: { tokenTtlSeconds: 3600 }, label: 'photos' });
  f.reso.state.media.configure({ enabled: true, tokenUserAgent: true });
  const dir = tempDir('ls-photos-');
  const env = { LISTING_SYNC_MEDIA_STORE: pathToFileURL(dir).href, LISTING_SYNC_MEDIA_BASE_URL: BASE, FEED_MEDIA_USER_AGENT: 'token' };
  return { f, dir, env };
}

const expectedImages = (f: ResoFixture): Map<string, string[]> => expectedHosted(f, BASE);
const heldImages = (f: ResoFixture): Map<string, string[]> => held(f, BOT);

describe('hosted photos', () => {
  it('hosts every photo once, in Order, under the base URL, with the token as User-Agent; no write names the media host', async () => {
    const { f, dir, env } = await setUp();
    const run = await f.replicate(BOT, { env });
    expect(run.code, run.stderr).toBe(0);
    const out = jsonOf<WithPhotos>(run);
    expect(out.replication.photos).toMatchObject({ hosted: 60, reused: 0, notFetched: 0 });
    expect(heldImages(f)).toEqual(expectedImages(f));
    // Every object is the source's bytes: its name is their sha256, and so is its content's.
    expectStoreHoldsSourceBytes(dir, 60);
    const downloads = f.reso.state.media.downloads();
    expect(downloads).toHaveLength(60);
    const tokens = new Set(f.reso.state.issuedTokens());
    for (const download of downloads) {
      expect(download.status).toBe(200);
      expect(tokens.has(download.userAgent ?? '')).toBe(true);
    }
    expectNoMediaHostWritten(f);

    // Unchanged: nothing downloaded, nothing written.
    f.reso.state.media.clearLog();
    const again = await f.replicate(BOT, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(f.reso.state.media.downloads()).toEqual([]);
    expect(jsonOf<WithPhotos>(again).plan).toMatchObject({ create: 0, update: 0, delete: 0 });

    // One photo changed: one download, and the listing shows the new bytes in its place.
    const [first = '', second = ''] = f.keys();
    f.reso.state.records.editPhoto({ key: first, order: 2, action: 'change', timestamp: new Date(Date.now() + 60_000).toISOString() });
    const changed = await f.replicate(BOT, { env });
    expect(changed.code, changed.stderr).toBe(0);
    expect(f.reso.state.media.downloads().map((download) => download.status)).toEqual([200]);
    expect(heldImages(f)).toEqual(expectedImages(f));

    // One photo removed: the listing keeps the other two, in Order.
    f.reso.state.records.editPhoto({ key: second, order: 1, action: 'remove', timestamp: new Date(Date.now() + 120_000).toISOString() });
    const removed = await f.replicate(BOT, { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(heldImages(f).get(f.listingIdOf(second))).toHaveLength(2);
    expect(heldImages(f)).toEqual(expectedImages(f));
  });

  it('refreshes an expired signed URL by reading the Media again, and fetches it', async () => {
    const { f, env } = await setUp();
    f.reso.state.media.configure({ expireNext: 1 });
    const run = await f.replicate(BOT, { env });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<WithPhotos>(run).replication.photos).toMatchObject({ hosted: 60, notFetched: 0, refreshed: 1 });
    expect(f.reso.state.media.downloads().filter((download) => download.status === 403)).toHaveLength(1);
    expect(heldImages(f)).toEqual(expectedImages(f));
  });

  it('a hanging media host does not hold the run: the other listings are whole, and the next run fetches what was missing', async () => {
    const { f, env } = await setUp();
    const [stuckKey = ''] = f.keys();
    const stuck = f.reso.state.records.get(stuckKey)?.media.find((photo) => photo.Order === 2)?.MediaKey ?? '';
    f.reso.state.media.configure({ hang: [stuck] });
    const run = await f.replicate(BOT, { env: { ...env, LISTING_SYNC_MEDIA_TIMEOUT: '1s' } });
    expect(run.code, run.stderr).toBe(0);
    const photos = jsonOf<WithPhotos>(run).replication.photos;
    expect(photos).toMatchObject({ hosted: 59, notFetched: 1 });
    expect(photos?.failures).toEqual({ [new URL(f.reso.baseUrl).host]: { timeout: 1 } });
    const expected = expectedImages(f);
    const held = heldImages(f);
    const stuckId = f.listingIdOf(stuckKey);
    for (const [id, images] of expected) expect(held.get(id)).toEqual(id === stuckId ? images.filter((_, index) => index !== 1) : images);
    expect(run.stdout).toBe(run.stdout.trim() + '\n');

    f.reso.state.media.configure({ hang: [] });
    const next = await f.replicate(BOT, { env });
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<WithPhotos>(next).replication.photos).toMatchObject({ hosted: 1, notFetched: 0 });
    expect(heldImages(f)).toEqual(expectedImages(f));
  });

  it('--events: the records an event run reads are hosted too (reused, no download, no write naming the media host)', async () => {
    const { f, env } = await setUp();
    const first = await f.replicate(BOT, { env, extra: ['--events'] });
    expect(first.code, first.stderr).toBe(0);
    expect(heldImages(f)).toEqual(expectedImages(f));
    const [key = ''] = f.keys();
    f.reso.state.records.modify({ keys: [key], timestamp: new Date(Date.now() + 60_000).toISOString() });
    f.reso.state.media.clearLog();
    f.sim.state.resetCounters();
    const next = await f.replicate(BOT, { env, extra: ['--events'] });
    expect(next.code, next.stderr).toBe(0);
    const out = jsonOf<WithPhotos>(next);
    expect(out.plan).toMatchObject({ update: 1 });
    expect(out.replication.photos).toMatchObject({ hosted: 0, reused: 3, notFetched: 0 });
    expect(f.reso.state.media.downloads()).toEqual([]);
    expect(heldImages(f)).toEqual(expectedImages(f));
    const mediaHost = new URL(f.reso.baseUrl).host;
    for (const call of f.sim.state.calls()) expect(JSON.stringify(call.body ?? null)).not.toContain(mediaHost);
  });

  it('--events: a listing left short of photos is read again by the next event run, with no event of its own', async () => {
    const { f, env } = await setUp();
    const [stuckKey = ''] = f.keys();
    const stuck = f.reso.state.records.get(stuckKey)?.media.find((photo) => photo.Order === 2)?.MediaKey ?? '';
    f.reso.state.media.configure({ hang: [stuck] });
    const first = await f.replicate(BOT, { env: { ...env, LISTING_SYNC_MEDIA_TIMEOUT: '1s' }, extra: ['--events'] });
    expect(first.code, first.stderr).toBe(0);
    expect(jsonOf<WithPhotos>(first).replication.photos).toMatchObject({ hosted: 59, notFetched: 1 });
    const stuckId = f.listingIdOf(stuckKey);
    expect(heldImages(f).get(stuckId)).toHaveLength(2);

    const byKey = (from: number): string[] =>
      f.reso.state
        .requests()
        .slice(from)
        .map((entry) => decodeURIComponent(entry.url))
        .filter((url) => url.startsWith('/odata/Property') && url.includes('ListingKey in'));
    f.reso.state.media.configure({ hang: [] });
    const before = f.reso.state.requests().length;
    const next = await f.replicate(BOT, { env, extra: ['--events'] });
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<WithPhotos>(next).replication.photos).toMatchObject({ hosted: 1, notFetched: 0 });
    expect(heldImages(f)).toEqual(expectedImages(f));
    const reread = byKey(before);
    expect(reread).toHaveLength(1);
    expect(reread[0]).toContain(`'${stuckKey}'`);

    const after = f.reso.state.requests().length;
    const idle = await f.replicate(BOT, { env, extra: ['--events'] });
    expect(idle.code, idle.stderr).toBe(0);
    expect(byKey(after)).toEqual([]);
    expect(heldImages(f)).toEqual(expectedImages(f));
  });

  it('refuses the mls-grid preset without a store (exit 2, naming --media-store), unless --hotlink-media', async () => {
    const f = await start({ chatbots: [BOT], records: 2, photos: 1, label: 'photos-grid' });
    const args = ['sync', '--chatbot', BOT, '--feed', f.reso.propertyUrl, '--profile', 'reso', '--replicate', '--feed-budget', 'mls-grid'];
    const refused = await runCli([...args, '--dry-run'], f.env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--media-store');
    expect(f.reso.state.counters().requests).toBe(0);
    const linked = await runCli([...args, '--dry-run', '--hotlink-media'], f.env());
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toContain('photos: linked, not hosted');
  });
});
