/**
 * Hosted photos of file feeds end to end: `sync --feed FILE --work` as a process with a file media
 * store, for a CSV whose Images column lists photo URLs and for a RESO Data Dictionary JSON file
 * (Media arrays inside the records), the photos served by the RESO simulator's media host. Outcomes
 * only: what the chatbot holds, what the store holds (by sha256), what the media host served, and
 * that no write body names the media host.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resoFixtures, type ResoFixture } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';
import {
  expectNoMediaHostWritten,
  expectStoreHoldsSourceBytes,
  heldImages as held,
  objectOf,
  tempDirs,
  type PhotoCounts,
} from '../helpers/hosted-photos.js';

const BOT = 'bot-file-photos';
const BASE = 'https://photos.brokerage.test/listing-photos';
const start = resoFixtures();
const tempDir = tempDirs();

interface Synced {
  runId: string;
  plan: { create: number; update: number; delete: number };
  photos?: PhotoCounts;
}

interface Photo {
  mediaKey: string;
  stamp: string;
  url: string;
}

/** Each record's photos in Order, with the media host's signed URL of each (issued once: a file keeps its URLs). */
function photosOf(f: ResoFixture): Map<string, Photo[]> {
  const origin = new URL(f.reso.baseUrl).origin;
  return new Map(
    f.reso.state.records.list().map((record) => [
      record.property.ListingId,
      [...record.media]
        .sort((a, b) => a.Order - b.Order)
        .map((photo) => ({
          mediaKey: photo.MediaKey,
          stamp: photo.ModificationTimestamp,
          url: f.reso.state.media.urlFor(origin, photo),
        })),
    ]),
  );
}

function csvOf(photos: ReadonlyMap<string, readonly Photo[]>): string {
  const header =
    'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,' +
    'AreaUnit,ParkingSpots,SalePrice,City,State,Images';
  const rows = [...photos].map(
    ([id, list], index) =>
      `${id},https://brokerage.test/listing/${id},for_sale,Active,$,Condo,2,1,1990,3,2000,850,Square Feet,1,${300000 + index},Springfield,CA,${list.map((p) => p.url).join('|')}`,
  );
  return `${[header, ...rows].join('\n')}\n`;
}

function expectedImages(photos: ReadonlyMap<string, readonly Photo[]>): Map<string, string[]> {
  return new Map([...photos].map(([id, list]) => [id, list.map((p) => `${BASE}/${objectOf(p.mediaKey, p.stamp)}`)]));
}

const heldImages = (f: ResoFixture): Map<string, string[]> => held(f, BOT);

async function setUp(records: number): Promise<{ f: ResoFixture; dir: string; env: Record<string, string> }> {
  const f = await start({ chatbots: [BOT], records, photos: 3, label: 'file-photos' });
  f.reso.state.media.configure({ enabled: true });
  const dir = tempDir('ls-file-photos-');
  return { f, dir, env: f.env({ LISTING_SYNC_MEDIA_STORE: pathToFileURL(dir).href, LISTING_SYNC_MEDIA_BASE_URL: BASE }) };
}

const sync = (feed: string, profile: string, env: Record<string, string>, extra: readonly string[] = []) =>
  runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', profile, '--work', '--json', ...extra], env, 60_000);

describe('hosted photos of file feeds', () => {
  it('a CSV image column: hosted once, in order; unchanged URLs cost nothing; a changed one costs one; a removed one leaves', async () => {
    const { f, dir, env } = await setUp(10);
    const photos = photosOf(f);
    const feed = join(tempDir('ls-file-feed-'), 'listings.csv');
    writeFileSync(feed, csvOf(photos));

    // Without a store the Images are the feed's URLs, and the summary says so once.
    const linked = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'native', '--dry-run'], f.env(), 60_000);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout.split('photos: linked, not hosted')).toHaveLength(2);

    const dry = await sync(feed, 'native', env, ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(jsonOf<Synced>(dry).photos).toMatchObject({ hosted: 0, reused: 0, wouldFetch: 30 });
    expect(f.reso.state.media.downloads()).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.jpg'))).toEqual([]);
    const dryText = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'native', '--dry-run'], env, 60_000);
    expect(dryText.stdout).toContain('photos: 0 hosted already, 30 photos to fetch (dry run: nothing downloaded)');

    const run = await sync(feed, 'native', env);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<Synced>(run).photos).toMatchObject({ hosted: 30, reused: 0, notFetched: 0 });
    expect(heldImages(f)).toEqual(expectedImages(photos));
    expectStoreHoldsSourceBytes(dir, 30);
    expect(f.reso.state.media.downloads()).toHaveLength(30);
    expectNoMediaHostWritten(f);

    // Unchanged: nothing downloaded, nothing written.
    f.reso.state.media.clearLog();
    const again = await sync(feed, 'native', env);
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf<Synced>(again)).toMatchObject({ plan: { create: 0, update: 0, delete: 0 }, photos: { hosted: 0, reused: 30 } });
    expect(f.reso.state.media.downloads()).toEqual([]);

    // One photo changed (a new URL), one removed: one download, the order kept.
    const [first = '', second = ''] = [...photos.keys()];
    const edited = new Map(photos);
    const origin = new URL(f.reso.baseUrl).origin;
    const stamp = new Date(Date.now() + 60_000).toISOString();
    const changedKey = `${first}-new`;
    const changedUrl = f.reso.state.media.urlFor(origin, {
      MediaKey: changedKey,
      MediaURL: '',
      Order: 2,
      ResourceRecordKey: first,
      ModificationTimestamp: stamp,
      MediaCategory: 'Photo',
    });
    const firstPhotos = photos.get(first) ?? [];
    edited.set(
      first,
      [firstPhotos[0], { mediaKey: changedKey, stamp, url: changedUrl }, firstPhotos[2]].filter((p) => p !== undefined),
    );
    edited.set(
      second,
      (photos.get(second) ?? []).filter((_, index) => index !== 1),
    );
    writeFileSync(feed, csvOf(edited));
    const changed = await sync(feed, 'native', env);
    expect(changed.code, changed.stderr).toBe(0);
    expect(jsonOf<Synced>(changed)).toMatchObject({ plan: { update: 2 }, photos: { hosted: 1, notFetched: 0 } });
    expect(f.reso.state.media.downloads().map((download) => download.status)).toEqual([200]);
    expect(heldImages(f)).toEqual(expectedImages(edited));
    expect(heldImages(f).get(second)).toHaveLength(2);
    expectNoMediaHostWritten(f);

    // A listing gone from the file: deleted, and its photos no longer referenced (media gc may remove them).
    const last = [...edited.keys()].at(-1) ?? '';
    edited.delete(last);
    writeFileSync(feed, csvOf(edited));
    const deleted = await sync(feed, 'native', env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(jsonOf<Synced>(deleted).plan).toMatchObject({ delete: 1 });
    const gc = await runCli(['media', 'gc', '--json', '--dry-run'], env);
    expect(gc.code, gc.stderr).toBe(0);
    // 30 hosted + 1 new, less the one replaced, the one removed and the deleted listing's 3.
    expect(jsonOf<{ referenced: number }>(gc).referenced).toBe(26);
  });

  it('a photo not fetched leaves the listing written with the hosted ones; the next run fetches the rest', async () => {
    const { f, env } = await setUp(4);
    const photos = photosOf(f);
    const feed = join(tempDir('ls-file-feed-'), 'listings.csv');
    writeFileSync(feed, csvOf(photos));
    const [stuckId = ''] = [...photos.keys()];
    const stuck = photos.get(stuckId)?.[1]?.mediaKey ?? '';
    f.reso.state.media.configure({ hang: [stuck] });
    const run = await sync(feed, 'native', { ...env, LISTING_SYNC_MEDIA_TIMEOUT: '1s' });
    expect(run.code, run.stderr).toBe(0);
    const counts = jsonOf<Synced>(run).photos;
    expect(counts).toMatchObject({ hosted: 11, notFetched: 1 });
    expect(counts?.failures).toEqual({ [new URL(f.reso.baseUrl).host]: { timeout: 1 } });
    const expected = expectedImages(photos);
    const held = heldImages(f);
    for (const [id, images] of expected) expect(held.get(id)).toEqual(id === stuckId ? images.filter((_, i) => i !== 1) : images);
    expectNoMediaHostWritten(f);

    f.reso.state.media.configure({ hang: [] });
    const next = await sync(feed, 'native', env);
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<Synced>(next)).toMatchObject({ plan: { update: 1 }, photos: { hosted: 1, reused: 11, notFetched: 0 } });
    expect(heldImages(f)).toEqual(expected);
  });

  it('a RESO Data Dictionary JSON file: the Media of each record hosted in Order, no write naming the media host', async () => {
    const { f, dir, env } = await setUp(6);
    const photos = photosOf(f);
    const records = f.reso.state.records.list().map((record) => ({
      ...record.property,
      Media: [...record.media].reverse().map((photo) => ({
        ...photo,
        MediaURL: photos.get(record.property.ListingId)?.find((p) => p.mediaKey === photo.MediaKey)?.url ?? '',
      })),
    }));
    const feed = join(tempDir('ls-file-feed-'), 'listings.json');
    writeFileSync(feed, JSON.stringify({ value: records }));
    const run = await sync(feed, 'reso', env);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<Synced>(run).photos).toMatchObject({ hosted: 18, notFetched: 0 });
    expect(heldImages(f)).toEqual(expectedImages(photos));
    expectStoreHoldsSourceBytes(dir, 18);
    expectNoMediaHostWritten(f);
    // The run record keeps the counts: `runs show` says them.
    const shown = await runCli(['runs', 'show', jsonOf<Synced>(run).runId], env);
    expect(shown.stdout).toMatch(/photos\s+18 hosted, 0 reused, 0 not fetched, /);
    const text = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', 'reso', '--dry-run'], env, 60_000);
    expect(text.stdout).toContain('photos: 18 hosted already, 0 photos to fetch');
  });
});
