import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FeedOptions, type FeedRow } from '../../src/feed/open-feed.js';
import { fixture, readFeedWith } from '../helpers/feed.js';

const readFeed = (options: Partial<FeedOptions> & { source: string }) => readFeedWith('redfin', options);

function listings(rows: FeedRow[]) {
  return new Map(rows.flatMap((row) => (row.kind === 'listing' ? [[row.key, row.listing] as const] : [])));
}

const ACCEPTED =
  'MLS Listing, New Construction Home, New Construction Plan, For-Sale-by-Owner Listing, Redfin Data, Past Sale, For Rent (any "For Rent …"), Rental';

describe('redfin profile', () => {
  it('maps a current Redfin export to the write shape', async () => {
    const { rows, stats } = await readFeed({ source: fixture('redfin.csv') });
    expect(rows.map((row) => [row.kind, row.line])).toEqual([
      ['listing', 2],
      ['listing', 3],
      ['listing', 4],
      ['listing', 5],
      ['listing', 6],
      ['listing', 7],
    ]);
    const byKey = listings(rows);
    expect(byKey.get('90000001')).toEqual({
      SaleType: 'for_sale',
      Status: 'Active',
      CurrencySymbol: '$',
      PropertyType: 'Condo/Co-op',
      Bedrooms: 2,
      Bathrooms: 2,
      Url: 'https://www.redfin.com/IL/Chicago/4410-N-Example-Ave-60640/unit-3B/home/90000001',
      MLSNumber: '90000001',
      YearBuilt: 2004,
      DaysOnMarket: 5,
      LotArea: 0,
      BuildingArea: 1150,
      AreaUnit: 'Square Feet',
      Tours: 'OpenHouse',
      ParkingSpots: 0,
      Location: 'CHI - Uptown',
      Address: '4410 N Example Ave Unit 3B',
      City: 'Chicago',
      State: 'IL',
      ZIP: '60640',
      Latitude: 41.9612,
      Longitude: -87.6551,
      SalePrice: 385000,
      UnitAreaPrice: 335,
      HOAMonth: 410,
    });
    expect(byKey.get('90000002')?.Tours).toBeUndefined();
    expect(byKey.get('90000003')).toMatchObject({ Status: 'PreOnMarket', SaleType: 'for_sale', YearBuilt: 0 });
    expect(byKey.get('90000004')).toMatchObject({
      Status: 'PreOnMarket',
      SaleType: 'for_sale',
      Bedrooms: 0,
      Bathrooms: 0,
      BuildingArea: 0,
    });
    expect(byKey.get('90000005')).toMatchObject({ SaleType: 'for_rent', Status: 'Active', RentPrice: 2450 });
    expect(byKey.get('90000005')?.SalePrice).toBeUndefined();
    expect(byKey.get('90000006')).toMatchObject({ Status: 'Sold', SalePrice: 410000 });
    expect(stats).toEqual({
      rows: 6,
      valid: 6,
      rejected: 0,
      excluded: 0,
      duplicates: 0,
      filledDefaults: { LotArea: 5, ParkingSpots: 6, YearBuilt: 1, Bedrooms: 1, Bathrooms: 1, BuildingArea: 1, DaysOnMarket: 1 },
    });
  });

  it('reads the older header (STATE, ZIP, another URL column) and integers written as 3.0', async () => {
    const { rows, stats } = await readFeed({ source: fixture('redfin-old-header.csv') });
    const first = listings(rows).get('91000001');
    expect(first).toMatchObject({
      MLSNumber: '91000001',
      State: 'IL',
      ZIP: '60201',
      Bedrooms: 3,
      Bathrooms: 2,
      YearBuilt: 1925,
      LotArea: 5200,
      BuildingArea: 1850,
      SalePrice: 615000,
      Url: 'http://www.redfin.com/IL/Evanston/718-W-Legacy-Ln-60201/home/91000001',
    });
    expect(stats.valid).toBe(2);
  });

  it('keys by URL when asked', async () => {
    const { rows } = await readFeed({ source: fixture('redfin-old-header.csv'), keyType: 'URL' });
    expect(rows.map((row) => (row.kind === 'listing' ? row.key : row.kind))).toEqual([
      'http://www.redfin.com/IL/Evanston/718-W-Legacy-Ln-60201/home/91000001',
      'http://www.redfin.com/IL/Evanston/1212-Old-Header-Rd-60202/unit-5/home/91000002',
    ]);
  });

  it('survives a messy export: BOM, CRLF, odd casing, money, blanks, a quoted newline, a bad row, a duplicate', async () => {
    const { rows, stats } = await readFeed({ source: fixture('redfin-messy.csv') });
    expect(rows.map((row) => [row.kind, row.line])).toEqual([
      ['listing', 2],
      ['listing', 3],
      ['rejected', 5],
      ['listing', 6],
      ['rejected', 7],
    ]);
    const byKey = listings(rows);
    expect(byKey.get('92000001')).toMatchObject({
      SaleType: 'for_sale',
      Status: 'Active',
      SalePrice: 1250000,
      HOAMonth: 1100,
      Bathrooms: 3.75,
      BuildingArea: 0,
      LotArea: 0,
      YearBuilt: 0,
      Address: '9 Messy Ct',
    });
    expect(byKey.get('92000002')).toMatchObject({
      Status: 'PreOnMarket',
      Address: '1550 N Quoted St, Unit 2\nRear Building',
      SalePrice: 499000,
      Bathrooms: 1.5,
    });
    expect(byKey.get('92000004')).toMatchObject({ LotArea: 4356.5, Bedrooms: 0, Bathrooms: 0 });
    expect(rows[2]).toEqual({
      kind: 'rejected',
      line: 5,
      key: '92000003',
      field: 'Bedrooms',
      value: 'three',
      reason: "Bedrooms: expected a number, got 'three' (column 'Beds')",
    });
    expect(rows[4]).toEqual({
      kind: 'rejected',
      line: 7,
      key: '92000001',
      field: 'MLSNumber',
      value: '92000001',
      reason: 'duplicate MLSNumber 92000001 (first seen on line 2)',
    });
    expect(stats).toMatchObject({ rows: 5, valid: 3, rejected: 2, duplicates: 1 });
  });

  it('accepts every sale type Redfin exports, each mapped deliberately; an unknown one is rejected naming the accepted values', async () => {
    const { rows, stats } = await readFeed({ source: fixture('redfin-sale-types.csv') });
    const byKey = listings(rows);
    expect([...byKey].map(([key, listing]) => [key, listing.SaleType, listing.Status])).toEqual([
      ['95000001', 'for_sale', 'Active'],
      ['95000002', 'for_sale', 'PreOnMarket'],
      ['95000003', 'for_sale', 'Active'],
      ['95000004', 'for_sale', 'Active'],
      ['95000005', 'for_sale', 'Active'],
      ['95000006', 'for_sale', 'Sold'],
      ['95000007', 'for_rent', 'Active'],
    ]);
    expect(byKey.get('95000002')).toMatchObject({ SalePrice: 179999, HOAMonth: 250 });
    expect(byKey.get('95000007')).toMatchObject({ RentPrice: 2400 });
    expect(byKey.get('95000007')?.SalePrice).toBeUndefined();
    expect(rows.find((row) => row.kind === 'rejected')).toMatchObject({
      line: 9,
      field: 'SaleType',
      reason: `SaleType: expected one of for_sale, for_rent, got 'Auction Listing' (column 'SALE TYPE', which accepts ${ACCEPTED})`,
    });
    expect(stats).toMatchObject({ rows: 8, valid: 7, rejected: 1 });
  });

  it('rejects each kind of bad row with its line, field, value and a reason', async () => {
    const { rows, stats } = await readFeed({ source: fixture('redfin-rejects.csv') });
    const rejected = rows
      .filter((row) => row.kind === 'rejected')
      .map(({ line, field, value, reason }) => ({ line, field, value, reason }));
    expect(rejected).toEqual([
      { line: 2, field: 'PropertyType', value: '', reason: "PropertyType: required, but column 'PROPERTY TYPE' is empty" },
      {
        line: 3,
        field: 'MLSNumber',
        value: '',
        reason: "MLSNumber: empty (column 'MLS#'); every row needs a key for --key-type MLSNumber",
      },
      {
        line: 4,
        field: 'Status',
        value: 'Auction',
        reason: "Status: expected one of Active, PreOnMarket, Sold, got 'Auction' (column 'STATUS')",
      },
      { line: 5, field: 'Latitude', value: '141.88', reason: "Latitude: must be at most 90, got '141.88' (column 'LATITUDE')" },
      { line: 6, field: 'SalePrice', value: '-5', reason: "SalePrice: must be at least 0, got '-5' (column 'PRICE')" },
      { line: 7, field: 'YearBuilt', value: '1999.5', reason: "YearBuilt: expected a whole number, got '1999.5' (column 'YEAR BUILT')" },
      {
        line: 8,
        field: 'SaleType',
        value: 'Auction Listing',
        reason: `SaleType: expected one of for_sale, for_rent, got 'Auction Listing' (column 'SALE TYPE', which accepts ${ACCEPTED}` + ')',
      },
      {
        line: 9,
        field: '(record)',
        value: '',
        reason:
          'the row has 5 fields but the header has 27 (check quoting and the delimiter); its MLSNumber cannot be read (the row stops at field 5, before the key, field 23), so this run deletes nothing',
      },
    ]);
    // The short row's key column is past its end: nothing can be held for it, so a sync withholds its deletes.
    expect(rows.find((row) => row.line === 9)).toMatchObject({ kind: 'rejected', keyUnreadable: true });
    expect(rows.at(-1)).toMatchObject({ kind: 'listing', line: 10, key: '93000009' });
    expect(stats).toMatchObject({ rows: 9, valid: 1, rejected: 8, duplicates: 0 });
  });

  describe('TSV', () => {
    let dir: string | undefined;
    afterEach(async () => {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
      dir = undefined;
    });

    it('reads a .tsv export like the CSV one', async () => {
      const csv = await readFeed({ source: fixture('redfin.csv') });
      const tsv = await readFeed({ source: fixture('redfin.tsv') });
      expect(tsv.rows).toEqual(csv.rows);
    });

    it('sniffs tabs from the header when the name says nothing', async () => {
      dir = await mkdtemp(join(tmpdir(), 'feed-tsv-'));
      const copy = join(dir, 'export');
      await copyFile(fixture('redfin.tsv'), copy);
      const tsv = await readFeed({ source: copy });
      expect(tsv.stats.valid).toBe(6);
      expect(listings(tsv.rows).get('90000001')?.Address).toBe('4410 N Example Ave Unit 3B');
    });
  });

  it('reports progress in bytes against the file size', async () => {
    const { progress } = await readFeed({ source: fixture('redfin.csv') });
    expect(progress.totalBytes).toBeGreaterThan(1000);
    expect(progress.bytes).toBe(progress.totalBytes);
  });
});
