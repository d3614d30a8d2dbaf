/**
 * Empty is empty, through the built CLI against the simulator: a feed that leaves an optional
 * field empty equals the service's read form of an empty value (coordinates read back as 0, other
 * fields as "0", "", null or left out), so the same feed synced twice makes no write the second
 * time; and a feed that later fills the field is still written (the ledger hash sees it).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { ListingFields } from '../../src/domain/listing.js';
import { seededRandom } from '../../src/sim/faults.js';
import { EMPTY_READ_FORMS } from '../../src/sim/read-shape.js';
import { makeRecord } from '../../src/sim/reso/records.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import type { EmptyReadForm, OptionalReadField, ReadForms } from '../../src/sim/types.js';
import { releaseScene } from '../helpers/feed-scenario.js';
import { uniquePrefix } from '../helpers/redis.js';
import { simEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-empty';

let sim: RunningSimulator | undefined;
let prefix = '';
let dir = '';

afterEach(async (ctx) => {
  await releaseScene({ sim, dir, redisUrl, prefix, passed: (ctx.task.result?.errors ?? []).length === 0 });
  sim = undefined;
  dir = '';
  prefix = '';
});

interface Summary {
  plan: { create: number; update: number; delete: number; unchanged: number };
  changes: Array<{ field: string; count: number }>;
  result?: { created: number; updated: number; failed: number };
}

async function start(readForms: ReadForms = {}): Promise<{ s: RunningSimulator; env: Record<string, string> }> {
  prefix = uniquePrefix('empty');
  dir = mkdtempSync(join(tmpdir(), 'ls-empty-'));
  const s = await startTestSim({ chatbots: [BOT], readForms });
  sim = s;
  return { s, env: { ...simEnv(s), REDIS_URL: redisUrl, LISTING_SYNC_PREFIX: prefix, LOG_LEVEL: 'warn' } };
}

function writeNdjson(name: string, records: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  return path;
}

/** `sync --work --json` of `feed`; exit 0 asserted. */
async function synced(env: Record<string, string>, feed: string, profile: string): Promise<Summary> {
  const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--profile', profile, '--work', '--json'], env, 60_000);
  expect(run.code, run.stderr).toBe(0);
  return jsonOf<Summary>(run);
}

/** Syncs `feed` once (creates every listing), then again: the second run must plan and send nothing. */
async function expectSecondSyncWritesNothing(
  s: RunningSimulator,
  env: Record<string, string>,
  feed: string,
  profile: string,
  count: number,
) {
  expect((await synced(env, feed, profile)).result).toMatchObject({ created: count, failed: 0 });
  s.state.resetCounters();
  const second = await synced(env, feed, profile);
  expect(second.plan).toEqual({ create: 0, update: 0, delete: 0, unchanged: count, held: 0, adopted: 0 });
  expect(second.changes).toEqual([]);
  expect(s.state.writeCalls()).toBe(0);
}

/** RESO members of optional fields the reso profile reads; record i of the feed lacks the (i % 9)-th. */
const RESO_OPTIONAL = [
  'PublicRemarks',
  'UnparsedAddress',
  'City',
  'StateOrProvince',
  'PostalCode',
  'AssociationFee',
  'VirtualTourURLUnbranded',
  'Media',
  'ListPrice',
] as const;

function resoRecords(count: number): Array<Record<string, unknown>> {
  const random = seededRandom(27);
  return Array.from({ length: count }, (_, i) => {
    const { property, media } = makeRecord(random, i + 1, Date.UTC(2026, 10, 1), { status: 'Active', photos: 2 });
    const { Latitude: _lat, Longitude: _lon, ...withoutCoordinates } = property;
    const record: Record<string, unknown> = {
      ...withoutCoordinates,
      AssociationFee: 250,
      AssociationFeeFrequency: 'Monthly',
      VirtualTourURLUnbranded: `https://tours.example.test/${property.ListingId}`,
      Media: media,
    };
    delete record[RESO_OPTIONAL[i % RESO_OPTIONAL.length] as string];
    return record;
  });
}

describe('an unchanged feed costs zero writes, whatever the read form of an empty value', () => {
  it('a RESO feed of 99 listings without coordinates (each also without one other optional member), synced twice: 0 writes; coordinates added later are written', async () => {
    const { s, env } = await start();
    const records = resoRecords(99);
    const feed = writeNdjson('reso.ndjson', records);
    await expectSecondSyncWritesNothing(s, env, feed, 'reso', 99);
    // The service shows an unset coordinate as 0, as the real one does.
    expect(s.state.listings(BOT).every((listing) => listing.Latitude === undefined)).toBe(true);

    // Five listings get coordinates: the read shape showed 0 (no value), the ledger hash sees the change.
    const located = records.map((record, i) => (i < 5 ? { ...record, Latitude: 41.9 + i / 100, Longitude: -87.6 } : record));
    const added = await synced(env, writeNdjson('located.ndjson', located), 'reso');
    expect(added.plan).toMatchObject({ create: 0, update: 5, unchanged: 94 });
    expect(added.result).toMatchObject({ updated: 5, failed: 0 });
    expect(s.state.listings(BOT).filter((listing) => listing.Latitude !== undefined)).toHaveLength(5);
    s.state.resetCounters();
    expect((await synced(env, writeNdjson('located.ndjson', located), 'reso')).plan).toMatchObject({ update: 0, unchanged: 99 });
    expect(s.state.writeCalls()).toBe(0);
  });

  const OPTIONAL_FIELDS = Object.keys(EMPTY_READ_FORMS) as OptionalReadField[];
  /** Every optional field of the write shape: the 17 the read shape shows, and Location, which it never shows. */
  const WITHOUT: ReadonlyArray<keyof ListingFields> = [...OPTIONAL_FIELDS, 'Location'];

  /** A native listing with every optional field set. */
  function full(i: number): ListingFields {
    return {
      SaleType: 'for_sale',
      Status: 'Active',
      CurrencySymbol: '$',
      PropertyType: 'Condo',
      Bedrooms: 2,
      Bathrooms: 1,
      Url: `https://example.test/listing/${i}`,
      MLSNumber: `E${1000 + i}`,
      YearBuilt: 1990,
      DaysOnMarket: 3,
      LotArea: 1000,
      BuildingArea: 800,
      AreaUnit: 'Square Feet',
      ParkingSpots: 1,
      Images: [`https://example.test/img/${i}.jpg`],
      Tours: '3D',
      Description: `Listing ${i}`,
      ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
      Location: 'Downtown',
      Address: `${i} Main St`,
      City: 'Springfield',
      State: 'IL',
      ZIP: '62701',
      Latitude: 39.78,
      Longitude: -89.65,
      SalePrice: 250_000 + i,
      UnitAreaPrice: 312.5,
      HOAMonth: 120,
      ZestimatePrice: 260_000,
      RentPrice: 1_800,
      SpaceType: 'Entire place',
      DepositFee: 1_800,
    };
  }

  /** The simulator renders every optional field without a value as `form` where its member allows it (else the service's default). */
  function everyFieldAs(form: EmptyReadForm): ReadForms {
    const empty = Object.fromEntries(
      OPTIONAL_FIELDS.filter((field) => EMPTY_READ_FORMS[field].includes(form)).map((field) => [field, form]),
    );
    return { empty };
  }

  it.each(['zero', 'blank', 'null', 'absent'] as const)(
    'a native feed without each optional field in turn (and one with explicit zeros), read back as %s: 0 writes the second time',
    async (form) => {
      const { s, env } = await start(everyFieldAs(form));
      const listings = WITHOUT.map((field, i) => {
        const listing: Record<string, unknown> = { ...full(i) };
        delete listing[field];
        return listing;
      });
      listings.push({ ...full(WITHOUT.length), HOAMonth: 0, DepositFee: 0, Latitude: 0, UnitAreaPrice: 0 });
      const feed = writeNdjson('native.ndjson', listings);
      await expectSecondSyncWritesNothing(s, env, feed, 'native', WITHOUT.length + 1);
    },
  );
});
