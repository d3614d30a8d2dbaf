/**
 * Hosted photos of a fleet: a source's own `mediaStore` (no --media-store on the process), one
 * download per photo fanned out to every chatbot that shows the listing, for a CSV source and for a
 * replicated one; and bad media settings refused at their line and column. Against the RESO
 * simulator's media host, the service simulator's write log, a temp file store and real Redis.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectNoFeedSecret, resoFixtures, type ResoFixture } from '../helpers/reso-fixture.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';
import {
  expectNoMediaHostWritten,
  expectStoreHoldsSourceBytes,
  expectedImages as expectedHosted,
  heldImages,
  tempDirs,
} from '../helpers/hosted-photos.js';

const BOTS = ['photo-bot-a', 'photo-bot-b', 'photo-bot-c'];
const BASE = 'https://cdn.brokerage.test/photos';
const start = resoFixtures();
const tempDir = tempDirs();

interface FleetRunJson {
  exitCode: number;
  chatbots: Array<{ chatbot: string; exitCode: number; summary?: { photos?: { hosted: number; reused: number; notFetched: number } } }>;
}

async function cli(f: ResoFixture, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const run = await runCli(args, f.env({ LOG_LEVEL: 'warn', ...env }), 120_000);
  expectNoFeedSecret(run.stdout);
  expectNoFeedSecret(run.stderr);
  return run;
}

const expectedImages = (f: ResoFixture): Map<string, string[]> => expectedHosted(f, BASE);

/** A CSV of the simulator's records, its Images column the media host's signed URLs (issued once). */
function csvFeed(f: ResoFixture): string {
  const origin = new URL(f.reso.baseUrl).origin;
  const header =
    'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,' +
    'AreaUnit,ParkingSpots,SalePrice,City,State,Images';
  const rows = f.reso.state.records.list().map((record, index) => {
    const id = record.property.ListingId;
    const urls = [...record.media].sort((a, b) => a.Order - b.Order).map((photo) => f.reso.state.media.urlFor(origin, photo));
    return `${id},https://brokerage.test/l/${id},for_sale,Active,$,Condo,2,1,1990,3,2000,850,Square Feet,1,${300000 + index},Denver,CO,${urls.join('|')}`;
  });
  const path = join(tempDir('ls-fleet-photo-feed-'), 'listings.csv');
  writeFileSync(path, `${[header, ...rows].join('\n')}\n`);
  return path;
}

function fleetFile(source: string): string {
  const path = join(tempDir('ls-fleet-photos-'), 'fleet.yaml');
  writeFileSync(path, `sources:\n  photos:\n${source}chatbots:\n${BOTS.map((name) => `  ${name}:\n    source: photos\n`).join('')}`);
  return path;
}

function expectFannedOut(f: ResoFixture, store: string, photos: number): void {
  // One download per photo for the three chatbots, each the source's bytes.
  const downloads = f.reso.state.media.downloads();
  expect(downloads).toHaveLength(photos);
  expect(new Set(downloads.map((download) => download.mediaKey)).size).toBe(photos);
  expectStoreHoldsSourceBytes(store, photos);
  for (const chatbot of BOTS) expect(heldImages(f, chatbot), chatbot).toEqual(expectedImages(f));
  expectNoMediaHostWritten(f);
}

describe('fleet photos', () => {
  it("a CSV source's mediaStore: each photo downloaded once for three chatbots, every Image under the base URL", async () => {
    const f = await start({ chatbots: BOTS, records: 8, photos: 3, label: 'fleet-photos-csv' });
    f.reso.state.media.configure({ enabled: true });
    const store = tempDir('ls-fleet-store-');
    const file = fleetFile(
      `    feed: ${csvFeed(f)}\n    profile: native\n    mediaStore: ${pathToFileURL(store).href}\n    mediaBaseUrl: ${BASE}\n`,
    );
    const applied = await cli(f, ['fleet', 'apply', file]);
    expect(applied.code, applied.stderr).toBe(0);
    // The media settings are kept with the fleet: `fleet show` names them, and its output diffs as no change.
    const shown = await cli(f, ['fleet', 'show']);
    expect(shown.stdout).toContain(`mediaStore: ${pathToFileURL(store).href}`);
    const shownFile = join(tempDir('ls-fleet-shown-'), 'shown.yaml');
    writeFileSync(shownFile, shown.stdout);
    const diff = await cli(f, ['fleet', 'diff', shownFile]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^no changes: the installation matches /);

    const dry = await cli(f, ['fleet', 'run', 'photos', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('photos: 0 hosted already, 24 photos to fetch (dry run: nothing downloaded)');
    expect(f.reso.state.media.downloads()).toEqual([]);

    const run = await cli(f, ['fleet', 'run', 'photos', '--work', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const out = jsonOf<FleetRunJson>(run);
    expect(out.chatbots.map((chatbot) => chatbot.summary?.photos)).toEqual([
      expect.objectContaining({ hosted: 24, reused: 0, notFetched: 0 }),
      expect.objectContaining({ hosted: 0, reused: 24, notFetched: 0 }),
      expect.objectContaining({ hosted: 0, reused: 24, notFetched: 0 }),
    ]);
    expectFannedOut(f, store, 24);
  });

  it("a replicated source's mediaStore: one pull, one download per photo, every chatbot's Images hosted", async () => {
    const f = await start({ chatbots: BOTS, records: 6, photos: 2, label: 'fleet-photos-reso' });
    f.reso.state.media.configure({ enabled: true });
    const store = tempDir('ls-fleet-store-');
    const file = fleetFile(
      `    feed: ${f.reso.propertyUrl}\n    profile: reso\n    replicate: true\n    overlap: 0s\n` +
        `    mediaStore: ${pathToFileURL(store).href}\n    mediaBaseUrl: ${BASE}\n`,
    );
    const applied = await cli(f, ['fleet', 'apply', file]);
    expect(applied.code, applied.stderr).toBe(0);
    const run = await cli(f, ['fleet', 'run', 'photos', '--work', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expectFannedOut(f, store, 12);
  });

  it('a photo a hanging host kept from every chatbot is read again by the next shared pull, for all of them', async () => {
    const f = await start({ chatbots: BOTS, records: 4, photos: 2, label: 'fleet-photos-pending' });
    f.reso.state.media.configure({ enabled: true });
    const [first] = f.reso.state.records.list();
    const stuck = [...(first?.media ?? [])].sort((a, b) => a.Order - b.Order)[1]?.MediaKey ?? '';
    f.reso.state.media.configure({ hang: [stuck] });
    const store = tempDir('ls-fleet-store-');
    const file = fleetFile(
      `    feed: ${f.reso.propertyUrl}\n    profile: reso\n    replicate: true\n    overlap: 0s\n` +
        `    mediaStore: ${pathToFileURL(store).href}\n    mediaBaseUrl: ${BASE}\n`,
    );
    expect((await cli(f, ['fleet', 'apply', file])).code).toBe(0);
    const run = await cli(f, ['fleet', 'run', 'photos', '--work', '--json'], { LISTING_SYNC_MEDIA_TIMEOUT: '1s' });
    expect(run.code, run.stderr).toBe(0);
    const firstId = String(first?.property.ListingId);
    for (const chatbot of BOTS) expect(heldImages(f, chatbot).get(firstId), chatbot).toHaveLength(1);

    // Nothing changed at the source: only the pending listing is read again, and every chatbot gets its photo.
    f.reso.state.media.configure({ hang: [] });
    const next = await cli(f, ['fleet', 'run', 'photos', '--work', '--json']);
    expect(next.code, next.stderr).toBe(0);
    for (const chatbot of BOTS) expect(heldImages(f, chatbot), chatbot).toEqual(expectedImages(f));
    // One download for the three: the first chatbot hosts it, the others reuse it.
    const photos = jsonOf<{ chatbots: Array<{ replication?: { photos?: { hosted: number } } }> }>(next).chatbots;
    expect(photos.reduce((sum, bot) => sum + (bot.replication?.photos?.hosted ?? 0), 0)).toBe(1);
  });

  it('bad media settings are refused at their line and column, nothing read from Redis', async () => {
    const f = await start({ chatbots: BOTS, label: 'fleet-photos-bad' });
    const path = join(tempDir('ls-fleet-photos-'), 'fleet.yaml');
    writeFileSync(
      path,
      [
        'sources:',
        '  one:',
        `    feed: ${f.reso.propertyUrl}`,
        '    mediaStore: ftp://photos.example/x',
        '    mediaBaseUrl: photos.example',
        '  two:',
        `    feed: ${f.reso.propertyUrl}`,
        '    mediaStore: file:///srv/photos',
        '  three:',
        `    feed: ${f.reso.propertyUrl}`,
        '    mediaBaseUrl: https://photos.example',
        'chatbots:',
        `  ${BOTS[0] ?? ''}:`,
        '    source: one',
        '',
      ].join('\n'),
    );
    const diff = await cli(f, ['fleet', 'diff', path]);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain(
      `${path}:4:17: sources.one.mediaStore: must be file:///ABSOLUTE/DIR or s3://BUCKET[/PREFIX] (got a ftp URL)`,
    );
    expect(diff.stderr).toContain(`${path}:5:19: sources.one.mediaBaseUrl: must be an http(s) URL`);
    expect(diff.stderr).toContain(`${path}:8:17: sources.two.mediaStore: needs mediaBaseUrl`);
    expect(diff.stderr).toContain(`${path}:11:19: sources.three.mediaBaseUrl: does nothing without mediaStore`);
  });
});
