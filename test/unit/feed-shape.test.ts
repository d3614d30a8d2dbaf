/**
 * The feed-shape comparison (src/domain/feed-shape.ts): a column the mapping read with values that
 * is gone, a read column emptied, the JSON omission rule, a mapping that was fixed, and which new
 * column is named as looking like a gone one.
 */
import { describe, expect, it } from 'vitest';
import { columnLikeness, lookalikeColumn } from '../../src/domain/column-likeness.js';
import {
  compareShapes,
  describeDrift,
  type CountedColumnRead,
  type FeedHeader,
  type FeedShape,
  type RecordedShape,
  type ShapeDrift,
} from '../../src/domain/feed-shape.js';

const REDFIN_COLUMNS = ['SALE TYPE', 'PRICE', 'BEDS', 'BATHS', 'MLS#', 'NEXT OPEN HOUSE START TIME', 'SOURCE'];

/** The last run's shape of a 350-row Redfin-like export. */
function lastRun(overrides: Partial<RecordedShape> = {}): RecordedShape {
  return {
    source: '/feeds/acme.csv',
    runId: 'run-1',
    at: '2026-11-26T02:00:00.000Z',
    format: 'csv',
    columns: REDFIN_COLUMNS,
    reads: [
      { column: 'SALE TYPE', fields: ['SaleType'], rows: 350 },
      { column: 'PRICE', fields: ['SalePrice', 'RentPrice'], rows: 350 },
      { column: 'BEDS', fields: ['Bedrooms'], rows: 344 },
      { column: 'BATHS', fields: ['Bathrooms'], rows: 4 },
      { column: 'MLS#', fields: ['MLSNumber'], rows: 350 },
      { column: 'NEXT OPEN HOUSE START TIME', fields: ['Tours'], sparse: true, rows: 67 },
    ],
    fields: { SaleType: 350, SalePrice: 350, RentPrice: 0, Bedrooms: 344, Bathrooms: 4, MLSNumber: 350, Tours: 67 },
    rows: 350,
    ...overrides,
  };
}

/** Tonight's whole shape: last run's, with `reads` changed and `columns` as given. */
function tonight(columns: readonly string[], reads: readonly CountedColumnRead[], format: 'csv' | 'json' = 'csv'): FeedShape {
  const fields: Record<string, number> = {};
  for (const read of reads) for (const field of read.fields) fields[field] = Math.max(fields[field] ?? 0, read.rows);
  return { format, columns, reads, fields, rows: 350 };
}

/** A drift as compareShapes reports it, against run-1 of 350 rows. */
const drift = (
  kind: ShapeDrift['kind'],
  format: ShapeDrift['format'],
  column: string,
  fields: string[],
  rows: number,
  more: Partial<ShapeDrift> = {},
): ShapeDrift => ({
  kind,
  format,
  column,
  fields,
  before: { rows, of: 350, runId: 'run-1' },
  ...more,
});

const readsOf = (shape: RecordedShape, change: Record<string, number | null>): CountedColumnRead[] =>
  shape.reads.flatMap((read) => {
    const rows = change[read.column];
    if (rows === null) return [];
    return [{ ...read, rows: rows ?? read.rows }];
  });

describe('compareShapes', () => {
  it('finds a renamed column gone, names the field it filled with values and the new column that looks like it', () => {
    const previous = lastRun();
    const columns = REDFIN_COLUMNS.map((name) => (name === 'PRICE' ? 'LIST PRICE' : name));
    const header: FeedHeader = { format: 'csv', columns, reads: previous.reads.filter((read) => read.column !== 'PRICE') };
    const found = compareShapes(previous, header);
    // RentPrice had no value from it: nothing to lose.
    expect(found).toEqual([drift('gone', 'csv', 'PRICE', ['SalePrice'], 350, { lookalike: 'LIST PRICE' })]);
    const reason = describeDrift(found[0] as ShapeDrift);
    expect(reason).toContain("column 'PRICE' (SalePrice) is gone; 'LIST PRICE' is new and looks like it");
    expect(reason).toContain('"columns": {"SalePrice": "LIST PRICE"} in a --mapping file');
    expect(reason).toContain('--accept-shape');
  });

  it('finds a dropped column gone with no look-alike when no new column resembles it', () => {
    const previous = lastRun();
    const columns = REDFIN_COLUMNS.filter((name) => name !== 'PRICE');
    const found = compareShapes(previous, tonight(columns, readsOf(previous, { PRICE: null })));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: 'gone', column: 'PRICE', fields: ['SalePrice'] });
    expect(found[0]?.lookalike).toBeUndefined();
    expect(describeDrift(found[0] as ShapeDrift)).toContain('is gone; no new column looks like it');
  });

  it('finds a read column emptied when it had values in a handful of rows and has none now', () => {
    const previous = lastRun();
    const found = compareShapes(previous, tonight(REDFIN_COLUMNS, readsOf(previous, { BEDS: 0 })));
    expect(found).toEqual([drift('emptied', 'csv', 'BEDS', ['Bedrooms'], 344, { rowsNow: 350 })]);
    expect(describeDrift(found[0] as ShapeDrift)).toMatch(
      /column 'BEDS' \(Bedrooms\) is empty on all 350 rows; it had values on 344 of 350 rows/,
    );
  });

  it('does not count as emptied a column with fewer than a handful of values last time, a sparse one, or a feed of no rows', () => {
    const previous = lastRun();
    expect(compareShapes(previous, tonight(REDFIN_COLUMNS, readsOf(previous, { BATHS: 0 })))).toEqual([]);
    expect(compareShapes(previous, tonight(REDFIN_COLUMNS, readsOf(previous, { 'NEXT OPEN HOUSE START TIME': 0 })))).toEqual([]);
    const none = { ...tonight(REDFIN_COLUMNS, readsOf(previous, { BEDS: 0, PRICE: 0 })), rows: 0 };
    expect(compareShapes(previous, none)).toEqual([]);
  });

  it('knows only gone columns from a header: emptied ones need the rows', () => {
    const previous = lastRun();
    const header: FeedHeader = { format: 'csv', columns: REDFIN_COLUMNS, reads: previous.reads };
    expect(compareShapes(previous, header)).toEqual([]);
  });

  it('finds nothing when the shape is the same, and nothing for a gone column that was empty last time', () => {
    const previous = lastRun({
      columns: [...REDFIN_COLUMNS, 'HOA/MONTH'],
      reads: [...lastRun().reads, { column: 'HOA/MONTH', fields: ['HOAMonth'], rows: 0 }],
      fields: { ...lastRun().fields, HOAMonth: 0 },
    });
    expect(compareShapes(previous, tonight(REDFIN_COLUMNS, readsOf(lastRun(), {})))).toEqual([]);
  });

  it('lets a field the mapping now reads from another present column through (the mapping was fixed)', () => {
    const previous = lastRun();
    const columns = REDFIN_COLUMNS.map((name) => (name === 'PRICE' ? 'LIST PRICE' : name));
    const reads = [...readsOf(previous, { PRICE: null }), { column: 'LIST PRICE', fields: ['SalePrice'], rows: 350 }];
    expect(compareShapes(previous, tonight(columns, reads))).toEqual([]);
  });

  it('counts a JSON member absent from every record as gone only when it had values in a handful of records', () => {
    const previous = lastRun({
      format: 'json',
      columns: ['ListingId', 'ListPrice', 'ListingURL', 'BathroomsHalf'],
      reads: [
        { column: 'ListingId', fields: ['MLSNumber'], rows: 350 },
        { column: 'ListPrice', fields: ['SalePrice'], rows: 350 },
        // RESO servers omit null members: present in 3 records only.
        { column: 'BathroomsHalf', fields: ['Bathrooms'], rows: 3 },
        { column: 'ListingURL', fields: ['Url'], rows: 0 },
      ],
      fields: { MLSNumber: 350, SalePrice: 350, Bathrooms: 3, Url: 0 },
    });
    const reads: CountedColumnRead[] = previous.reads.map((read) => ({ ...read, rows: read.column === 'ListingId' ? 350 : 0 }));
    const found = compareShapes(previous, tonight(['ListingId', 'ListPriceAmount'], reads, 'json'));
    expect(found).toEqual([drift('gone', 'json', 'ListPrice', ['SalePrice'], 350, { lookalike: 'ListPriceAmount' })]);
    expect(describeDrift(found[0] as ShapeDrift)).toMatch(/^the feed's shape changed: member 'ListPrice' \(SalePrice\) is gone/);
  });

  it('counts a JSON member present but empty in every record as emptied', () => {
    const previous = lastRun({
      format: 'json',
      columns: ['ListingId', 'ListPrice'],
      reads: [
        { column: 'ListingId', fields: ['MLSNumber'], rows: 350 },
        { column: 'ListPrice', fields: ['SalePrice'], rows: 350 },
      ],
      fields: { MLSNumber: 350, SalePrice: 350 },
    });
    const reads = previous.reads.map((read) => ({ ...read, rows: read.column === 'ListPrice' ? 0 : 350 }));
    expect(compareShapes(previous, tonight(['ListingId', 'ListPrice'], reads, 'json'))).toMatchObject([
      { kind: 'emptied', column: 'ListPrice', fields: ['SalePrice'] },
    ]);
  });
});

describe('which new column looks like a gone one', () => {
  it.each([
    ['PRICE', ['SOURCE', 'LIST PRICE', 'FAVORITE'], 'LIST PRICE'],
    ['BEDS', ['BEDROOMS', 'BATHROOMS'], 'BEDROOMS'],
    ['MLS#', ['MLS NUMBER', 'NUMBER OF UNITS'], 'MLS NUMBER'],
    ['ZIP', ['ZIP OR POSTAL CODE'], 'ZIP OR POSTAL CODE'],
    ['ListPrice', ['ListingKey', 'OriginalListPrice'], 'OriginalListPrice'],
    ['PRICE', ['PRICE PER SQFT', 'LIST PRICE'], 'LIST PRICE'],
  ])('%s → %s among %j', (gone, candidates, expected) => {
    expect(lookalikeColumn(gone, candidates)).toBe(expected);
  });

  it('names none when no new column shares enough with it', () => {
    expect(lookalikeColumn('PRICE', ['SOURCE', 'FAVORITE', 'INTERESTED'])).toBeUndefined();
    expect(lookalikeColumn('PRICE', [])).toBeUndefined();
    expect(columnLikeness('PRICE', 'SOURCE')).toBeLessThan(0.5);
  });
});
