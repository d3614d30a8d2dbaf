/**
 * A feed with broken rows, synced by the built CLI against the simulator once listing-sync
 * manages the chatbot: a row with an unquoted comma, a cut-off last line or an NDJSON line that
 * is not JSON holds its listing (unchanged, never deleted) while the other rows are applied; a
 * row whose key cannot be read makes the run delete nothing, and the summary says why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv, type SyncBench } from '../helpers/sync-bench.js';

const BOT = 'bot-broken';
const bench = useSyncBench('sync-broken');

interface Summary {
  plan: {
    create: number;
    update: number;
    delete: number;
    unchanged: number;
    held: number;
    deletesWithheld?: { deletes: number; rows: number; lines: number[]; reason: string };
  };
  guard: { ok: boolean; reasons: string[] };
  feed: { rows: number; valid: number; rejected: number };
  result?: { created: number; updated: number; deleted: number; failed: number };
}

const sync = (feed: string, ...flags: string[]): string[] => ['sync', '--chatbot', BOT, '--feed', feed, '--json', '--work', ...flags];

function summaryOf(run: CliRun): Summary {
  expect(run.code, run.stderr).toBe(0);
  return jsonOf<Summary>(run);
}

/** The chatbot's listings by MLS number. */
function byKey(s: RunningSimulator): Map<string, Record<string, unknown>> {
  return new Map(s.state.listings(BOT).map((listing) => [String(listing.MLSNumber), { ...listing }]));
}

/** A bench whose chatbot holds `count` sample listings, written by a first sync (so they are managed). */
async function managed(count: number): Promise<SyncBench & { listings: ListingWrite[] }> {
  const opened = await bench.open({ chatbots: [BOT] });
  const listings = Array.from({ length: count }, (_, i) => sampleListing(i));
  const good = writeNativeCsv(opened.dir, 'good.csv', listings.map(nativeCsvRow));
  expect(summaryOf(await runCli(sync(good), opened.env)).result).toMatchObject({ created: count, failed: 0 });
  return { ...opened, listings };
}

describe('broken CSV rows hold their listings', () => {
  it('unquoted commas and a cut-off last line: zero wrong deletes, the other rows applied', async () => {
    const { sim: s, env, dir, listings } = await managed(60);
    const before = byKey(s);

    const rows = listings.map(nativeCsvRow);
    // An address with a comma after the key column, and one with two; listing 5 changes its price.
    rows[10] = nativeCsvRow({ ...(listings[10] as ListingWrite), Address: '110 Main St, Apt 4' });
    rows[20] = nativeCsvRow({ ...(listings[20] as ListingWrite), Address: '120 Main St, Unit 2, Rear' });
    rows[5] = nativeCsvRow({ ...(listings[5] as ListingWrite), RentPrice: 9999 });
    // A download cut off in the middle of the last row (after its key and a few fields).
    const last = rows[59] as string;
    rows[59] = last.slice(0, last.indexOf('Square Feet'));
    const broken = writeNativeCsv(dir, 'broken.csv', rows, false);

    const summary = summaryOf(await runCli(sync(broken), env));
    expect(summary.feed).toMatchObject({ rows: 60, valid: 57, rejected: 3 });
    expect(summary.plan).toMatchObject({ create: 0, update: 1, delete: 0, held: 3 });
    expect(summary.plan.deletesWithheld).toBeUndefined();
    expect(summary.result, JSON.stringify(summary)).toMatchObject({ created: 0, updated: 1, deleted: 0, failed: 0 });
    const after = byKey(s);
    for (const key of ['ML100010', 'ML100020', 'ML100059']) expect(after.get(key), key).toEqual(before.get(key));
    expect(after.get('ML100005')).toMatchObject({ RentPrice: 9999 });
    expect(after.size).toBe(60);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });

  it('a row whose key cannot be read: the plan deletes nothing and says why, with the line', async () => {
    const { sim: s, env, dir, listings } = await managed(40);

    // Listing 38 left the feed (a delete, normally); the download was cut inside listing 39's key.
    const cut = writeNativeCsv(dir, 'cut.csv', [...listings.slice(0, 38).map(nativeCsvRow), 'ML1000'], false);

    const run = await runCli(sync(cut), env);
    const summary = summaryOf(run);
    // Withheld: listing 38's delete, and listing 39's, whose row is there but unreadable.
    expect(summary.plan).toMatchObject({ delete: 0, deletesWithheld: { deletes: 2, rows: 1, lines: [40] } });
    expect(summary.plan.deletesWithheld?.reason).toMatch(
      /^1 rejected row is too broken to read its MLSNumber \(line 40\).*this run deletes nothing: 2 planned deletes were withheld/,
    );
    expect(summary.guard.ok).toBe(true);
    expect(summary.result).toMatchObject({ deleted: 0, failed: 0 });
    expect(byKey(s).size).toBe(40);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);

    const text = await runCli(['sync', '--chatbot', BOT, '--feed', cut, '--dry-run'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/plan {4}create 0, update 0, delete 0/);
    expect(text.stdout).toContain('deletes withheld: 1 rejected row is too broken to read its MLSNumber (line 40)');
    expect(text.stdout).toContain(
      "line 40: the row has 1 fields but the header has 25 (check quoting and the delimiter); its MLSNumber cannot be read (the key is the row's last field, 1, which may be cut short)",
    );
  });
});

describe('an NDJSON line that is not JSON holds its listing', () => {
  const record = (i: number): Record<string, unknown> => ({
    ListingId: `R${i}`,
    ListingURL: `https://mls.example.test/R${i}`,
    StandardStatus: 'Active',
    PropertyType: 'Residential',
    PropertySubType: 'Condominium',
    ListPrice: 300000 + i,
    BedroomsTotal: 2,
    BathroomsTotalDecimal: 1,
    LivingArea: 900,
    YearBuilt: 2000,
    DaysOnMarket: 3,
    ParkingTotal: 1,
    UnparsedAddress: `${i} Json Way`,
    City: 'Denver',
    StateOrProvince: 'CO',
    PostalCode: '80205',
  });

  it('a line with a stray character and a cut-off last line keep their listings; the others are applied', async () => {
    const { sim: s, env, dir } = await bench.open({ chatbots: [BOT] });
    const records = Array.from({ length: 40 }, (_, i) => record(i));
    const good = join(dir, 'good.ndjson');
    writeFileSync(good, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    expect(summaryOf(await runCli(sync(good, '--profile', 'reso'), env)).result).toMatchObject({ created: 40, failed: 0 });
    const before = byKey(s);

    const lines = records.map((r) => JSON.stringify(r));
    lines[7] = (lines[7] as string).replace('"City"', '"City":: ');
    lines[3] = JSON.stringify({ ...record(3), ListPrice: 123456 });
    lines[39] = (lines[39] as string).slice(0, (lines[39] as string).indexOf('"YearBuilt"'));
    const broken = join(dir, 'broken.ndjson');
    writeFileSync(broken, lines.join('\n'));

    const summary = summaryOf(await runCli(sync(broken, '--profile', 'reso'), env));
    expect(summary.feed).toMatchObject({ rows: 40, rejected: 2 });
    expect(summary.plan).toMatchObject({ update: 1, delete: 0, held: 2 });
    expect(summary.result, JSON.stringify(summary)).toMatchObject({ updated: 1, deleted: 0, failed: 0 });
    const after = byKey(s);
    for (const key of ['R7', 'R39']) expect(after.get(key), key).toEqual(before.get(key));
    expect(after.get('R3')).toMatchObject({ SalePrice: 123456 });
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
  });
});
