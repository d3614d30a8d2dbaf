/**
 * Rows too broken to map (wrong field count, not JSON) keep their key wherever the damage leaves
 * its position trustworthy, and say when it does not: read through openFeed, as a sync reads them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedOptions, FeedRow, RejectedFeedRow } from '../../src/feed/open-feed.js';
import { readFeedWith } from '../helpers/feed.js';

const COLUMNS = [
  'Url',
  'SaleType',
  'Status',
  'CurrencySymbol',
  'PropertyType',
  'Bedrooms',
  'Bathrooms',
  'YearBuilt',
  'DaysOnMarket',
  'LotArea',
  'BuildingArea',
  'AreaUnit',
  'ParkingSpots',
];
const cellsOf = (i: number): string[] => [
  `https://example.com/m${i}`,
  'for_sale',
  'Active',
  '$',
  'Condo',
  '2',
  '1',
  '1990',
  '3',
  '0',
  '800',
  'Square Feet',
  '1',
];

/** A native CSV with the key and the address where the test wants them. */
function csv(order: 'key-first' | 'address-first', rows: readonly string[]): string {
  const header = order === 'key-first' ? ['MLSNumber', ...COLUMNS, 'Address'] : ['Address', 'MLSNumber', ...COLUMNS];
  return `${[header.join(','), ...rows].join('\n')}\n`;
}
const keyFirst = (i: number, address = `${i} Main St`): string => [`M${i}`, ...cellsOf(i), address].join(',');
const addressFirst = (i: number, address = `${i} Main St`): string => [address, `M${i}`, ...cellsOf(i)].join(',');

function rejectedOn(rows: readonly FeedRow[], line: number): RejectedFeedRow {
  const row = rows.find((candidate) => candidate.line === line);
  if (row?.kind !== 'rejected') throw new Error(`line ${line} is not rejected: ${JSON.stringify(row)}`);
  return row;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-broken-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(name: string, content: string, options: Partial<FeedOptions> = {}): Promise<FeedRow[]> {
  const path = join(dir, name);
  await writeFile(path, content);
  return (await readFeedWith(options.profile ?? 'native', { source: path, ...options })).rows;
}

describe('a CSV row with more fields than the header (unquoted delimiters)', () => {
  it('holds the key read from the left when the stray comma comes after the key column', async () => {
    const rows = await read('after.csv', csv('key-first', [keyFirst(1), keyFirst(2, '2 Main St, Apt 4'), keyFirst(3)]));
    const row = rejectedOn(rows, 3);
    expect(row.keyCandidates).toContain('M2');
    expect(row.keyUnreadable).toBeUndefined();
    expect(row.reason).toMatch(
      /^the row has 16 fields but the header has 15 .*; its MLSNumber is one of M2, .*each of those listings is left as it is$/,
    );
    expect(rows.filter((r) => r.kind === 'listing').map((r) => r.line)).toEqual([2, 4]);
  });

  it('holds the key read from the right when the stray comma comes before the key column', async () => {
    const rows = await read(
      'before.csv',
      csv('address-first', [addressFirst(1), addressFirst(2, '2 Main St, Apt 4'), addressFirst(3, '3 Elm, Unit 5, Rear')]),
    );
    expect(rejectedOn(rows, 3).keyCandidates).toEqual(['Apt 4', 'Apt 4,M2', 'M2']);
    // Two stray commas: the key may be any cell from its column to two further, or a run of them.
    const two = rejectedOn(rows, 4).keyCandidates ?? [];
    expect(two).toContain('M3');
    expect(two).toEqual(expect.arrayContaining(['Unit 5', 'Rear', 'Unit 5, Rear,M3']));
  });

  it('holds a key that itself holds the stray delimiter (a URL key with a comma), joined again', async () => {
    const url = 'https://example.com/homes/a,b';
    const row = [`M2`, url, ...cellsOf(2).slice(1), '2 Main St'].join(',');
    const rows = await read('url.csv', csv('key-first', [keyFirst(1), row]), { keyType: 'URL' });
    expect(rejectedOn(rows, 3).keyCandidates).toContain(url);
  });

  it('leaves out empty candidates; all empty is an empty key (the row names no listing), not an unreadable one', async () => {
    const blankKey = ['', ...cellsOf(2), '2 Main St, Apt 4'].join(',');
    const rows = await read('blank.csv', csv('key-first', [keyFirst(1), blankKey.replace('https://example.com/m2', '')]));
    const row = rejectedOn(rows, 3);
    expect([row.key, row.keyCandidates, row.keyUnreadable]).toEqual([undefined, undefined, undefined]);
  });

  it('gives up past 8 stray delimiters: the key is unreadable', async () => {
    const rows = await read('many.csv', csv('address-first', [addressFirst(1), addressFirst(2, 'a,b,c,d,e,f,g,h,i,j')]));
    expect(rejectedOn(rows, 3)).toMatchObject({ keyUnreadable: true, reason: expect.stringContaining('9 fields too many') });
  });
});

describe('a CSV row with fewer fields than the header (a cut-off last line)', () => {
  it('trusts the key when its column lies before the last cell present', async () => {
    const cut = keyFirst(2).slice(0, keyFirst(2).indexOf(',Active') + 4);
    const rows = await read('cut.csv', csv('key-first', [keyFirst(1), cut]).replace(/\n$/, ''));
    expect(rejectedOn(rows, 3)).toMatchObject({
      key: 'M2',
      reason: expect.stringContaining('its MLSNumber M2 was read where the row is intact'),
    });
  });

  it('does not trust a key in the last cell present (it may be cut short) or past it', async () => {
    const inKey = await read('in-key.csv', `${csv('key-first', [keyFirst(1)])}M12`);
    expect(rejectedOn(inKey, 3)).toMatchObject({
      keyUnreadable: true,
      reason: expect.stringContaining("the key is the row's last field, 1, which may be cut short"),
    });
    const beforeKey = await read('before-key.csv', `${csv('address-first', [addressFirst(1)])}9 Elm St`);
    expect(rejectedOn(beforeKey, 3)).toMatchObject({
      keyUnreadable: true,
      reason: expect.stringContaining('the row stops at field 1, before the key, field 2'),
    });
  });

  it('a broken row with a trusted key claims it: a later row with that key is a duplicate', async () => {
    const cut = keyFirst(2).slice(0, keyFirst(2).indexOf(',Active'));
    const rows = await read('claim.csv', csv('key-first', [keyFirst(1), cut, keyFirst(2)]));
    expect(rejectedOn(rows, 3).key).toBe('M2');
    expect(rejectedOn(rows, 4)).toMatchObject({ key: 'M2', reason: 'duplicate MLSNumber M2 (first seen on line 3)' });
  });
});

describe('an NDJSON line that is not a JSON object', () => {
  const good = (i: number): string =>
    JSON.stringify({
      ListingId: `R${i}`,
      ListingURL: `https://e.test/r${i}`,
      StandardStatus: 'Active',
      PropertyType: 'Residential',
      ListPrice: 100000 + i,
    });
  const lines = async (...broken: string[]): Promise<FeedRow[]> =>
    read(`feed-${broken.length}-${broken[0]?.length ?? 0}.ndjson`, [good(1), ...broken, good(9)].join('\n'), { profile: 'reso' });

  it('reads the key member when it appears once with a complete string or number', async () => {
    const rows = await lines('{"ListingId": "R2", "ListPrice": 12,,}', '{"ListingId":345, "City": "Oak', '[{"ListingId":"R4"}]');
    expect([rejectedOn(rows, 2).key, rejectedOn(rows, 3).key, rejectedOn(rows, 4).key]).toEqual(['R2', '345', 'R4']);
    expect(rejectedOn(rows, 2).reason).toMatch(/^not valid JSON .*; its MLSNumber R2 was read where the row is intact/);
  });

  it('calls the key unreadable when the member is missing, repeated or cut short', async () => {
    const rows = await lines(
      '{"ListingURL": "x", oops}',
      '{"ListingId":"R3","Media":[{"ListingId":"R3"}],}',
      '{"City":"Oak","ListingId":"R4',
      '{"ListingId": 45',
    );
    expect([2, 3, 4, 5].map((line) => rejectedOn(rows, line).keyUnreadable)).toEqual([true, true, true, true]);
    expect(rejectedOn(rows, 3).reason).toContain('"ListingId" appears 2 times in it');
    expect(rejectedOn(rows, 4).reason).toContain('"ListingId" has no complete string or number');
  });
});
