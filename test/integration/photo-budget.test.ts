/**
 * Photo downloads count against the feed's media byte budget (the Redis budget every process
 * shares) and never pass it: once the bytes-per-hour window is used up, the photos left are not
 * asked for (no request reaches the media host), their listings are written with the photos
 * already hosted and marked to be read again, and a run with room in the window fetches them.
 * Real Redis, a real HTTP media host on loopback, a file store in a temp directory.
 */
import { describe, expect, it } from 'vitest';
import { fileMediaStore } from '../../src/feed/media/file-store.js';
import { hostHolds } from '../../src/feed/media/host-holds.js';
import { photoHosting } from '../../src/feed/media/photo-hosting.js';
import type { ResoRecord } from '../../src/feed/reso-api/types.js';
import { storePerTest } from '../helpers/store-per-test.js';
import { loopbackMediaHosts, type LoopbackMediaHost } from '../helpers/loopback-media-host.js';

const t = storePerTest('photo-budget');
const PHOTO = 10_000;
const FEED = 'feed-photo-budget';
const BOT = 'bot-photo-budget';
const startHost = loopbackMediaHosts('ls-photo-budget-');

/** A media host whose every photo is PHOTO bytes, distinct per path; `seen` lists what it was asked for. */
const mediaHost = (): Promise<LoopbackMediaHost> =>
  startHost((req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(PHOTO) }).end(Buffer.alloc(PHOTO, req.url ?? ''));
  });

function records(url: string, listings: number, photos: number): ResoRecord[] {
  return Array.from({ length: listings }, (_, l) => ({
    ListingKey: `L${l}`,
    Media: Array.from({ length: photos }, (_, p) => ({
      MediaKey: `L${l}-${p}`,
      MediaCategory: 'Photo',
      Order: p + 1,
      MediaURL: `${url}/L${l}/${p}.jpg`,
    })),
  }));
}

function hostingOver(dir: string, bytesPerHour: number) {
  const memory = t.store.photos;
  const budget = t.store.feedBudget('photo-budget-test', { bytesPerHour });
  const hosting = photoHosting({
    baseUrl: 'https://photos.example.test',
    memory: {
      recall: (identities) => memory.recall(FEED, identities),
      remember: (learned) => memory.remember(FEED, learned),
      markPending: (change) => memory.markPending(BOT, FEED, change),
      reference: (listings) => memory.reference(BOT, listings),
    },
    download: { store: fileMediaStore(`file://${dir}`, dir), holds: hostHolds(), timeoutMs: 5000, maxBytes: 1_000_000 },
    budget,
    // One at a time, so that the window's room is read after each download's bytes were counted.
    concurrency: 1,
  });
  return { hosting, budget };
}

const imagesOf = (record: ResoRecord): unknown[] => (Array.isArray(record.Media) ? record.Media : []);

describe('photo downloads and the media byte budget', () => {
  it('stops asking once the hourly byte window is used up; the next run with room fetches the rest', async () => {
    const host = await mediaHost();
    // Room for three photos: the fourth download would find 30,000 bytes counted of 25,000.
    const { hosting, budget } = hostingOver(host.dir, 25_000);
    const page = records(host.url, 3, 2);
    await hosting.hostPage(page);
    const counts = hosting.counts();
    expect(counts).toMatchObject({ hosted: 3, notFetched: 3, bytes: 3 * PHOTO });
    expect(counts.failures).toEqual({ [new URL(host.url).host]: { budget: 3 } });
    expect(host.seen).toHaveLength(3);
    expect((await budget.usage()).bytesThisHour).toBe(3 * PHOTO);
    expect(await budget.bytesRoom()).toBe(false);
    // The listings are written with the photos already hosted, in Order; the short ones are to be read again.
    expect(page.map((record) => imagesOf(record).length)).toEqual([2, 1, 0]);
    expect((await t.store.photos.pending(BOT, FEED)).sort()).toEqual(['L1', 'L2']);

    // A later run whose window has room (here: a larger budget) fetches only what is missing.
    const next = hostingOver(host.dir, 1_000_000).hosting;
    const again = records(host.url, 3, 2);
    await next.hostPage(again);
    expect(next.counts()).toMatchObject({ hosted: 3, reused: 3, notFetched: 0 });
    expect(host.seen).toHaveLength(6);
    expect(again.map((record) => imagesOf(record).length)).toEqual([2, 2, 2]);
    expect(await t.store.photos.pending(BOT, FEED)).toEqual([]);
    t.pass();
  });
});
