/**
 * What a feed reports of its shape (src/feed/feed-shape-tracker.ts) when read through openFeed:
 * the header and the columns the mapping reads for which field, the rows with a value in each
 * read column, and for JSON every member seen in any record (RESO servers omit null members).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeed, type FeedOptions } from '../../src/feed/open-feed.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-shape-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function shapeOf(name: string, text: string, options: Partial<FeedOptions> & { profile: FeedOptions['profile'] }) {
  const source = join(dir, name);
  await writeFile(source, text);
  const feed = await openFeed({ keyType: 'MLSNumber', thread: 'main', source, ...options });
  const header = feed.header;
  for await (const row of feed.rows) void row;
  return { header, shape: feed.shape() };
}

const REDFIN_HEADER =
  'SALE TYPE,PROPERTY TYPE,PRICE,BEDS,BATHS,URL (SEE https://www.redfin.com/x FOR INFO),MLS#,NEXT OPEN HOUSE START TIME,FAVORITE';

describe('the shape a feed reports', () => {
  it('CSV: the header, each read column with its fields, and the rows with a value in it', async () => {
    const rows = [
      'MLS Listing,Condo,370000,2,2.0,https://r.example/1,M1,,N',
      'MLS Listing,Condo,274900,,1.0,https://r.example/2,M2,October-8-2022 11:00 AM,N',
      'For Rent,Condo,2100,1,,https://r.example/3,M3,,Y',
      'MLS Listing,Condo', // a row too broken to map (too few cells): not counted
    ];
    const { header, shape } = await shapeOf('redfin.csv', `${REDFIN_HEADER}\n${rows.join('\n')}\n`, { profile: 'redfin' });
    expect(header?.format).toBe('csv');
    expect(header?.columns).toEqual(REDFIN_HEADER.split(','));
    expect(header?.reads).toContainEqual({ column: 'PRICE', fields: ['SalePrice', 'RentPrice'] });
    expect(header?.reads).toContainEqual({ column: 'NEXT OPEN HOUSE START TIME', fields: ['Tours'], sparse: true });
    expect(header?.reads.map((read) => read.column)).not.toContain('FAVORITE');
    expect(shape?.rows).toBe(3);
    const rowsOf = (column: string): number | undefined => shape?.reads.find((read) => read.column === column)?.rows;
    expect([rowsOf('PRICE'), rowsOf('BEDS'), rowsOf('BATHS'), rowsOf('MLS#'), rowsOf('NEXT OPEN HOUSE START TIME')]).toEqual([
      3, 2, 2, 3, 1,
    ]);
    // Values the feed gave, defaults not counted (BEDS and BATHS fall back to 0).
    expect(shape?.fields).toMatchObject({ SalePrice: 2, RentPrice: 1, Bedrooms: 2, Bathrooms: 2, Tours: 1 });
  });

  it('JSON: every member seen in any record, and a member present but null counts as no value', async () => {
    const records = [
      { ListingId: 'R1', StandardStatus: 'Active', PropertyType: 'Residential', ListPrice: 500000, ListingURL: 'https://m.example/R1' },
      {
        ListingId: 'R2',
        StandardStatus: 'Active',
        PropertyType: 'Residential',
        ListPrice: null,
        BathroomsHalf: 1,
        ListingURL: 'https://m.example/R2',
      },
      {
        ListingId: 'R3',
        StandardStatus: 'Active',
        PropertyType: 'Residential',
        ListPrice: 410000,
        BathroomsHalf: 2,
        ListingURL: 'https://m.example/R3',
      },
    ];
    const { header, shape } = await shapeOf('reso.ndjson', records.map((record) => JSON.stringify(record)).join('\n'), { profile: 'reso' });
    expect(header?.format).toBe('json');
    expect(shape?.columns).toEqual(['ListingId', 'StandardStatus', 'PropertyType', 'ListPrice', 'ListingURL', 'BathroomsHalf']);
    const rowsOf = (column: string): number | undefined => shape?.reads.find((read) => read.column === column)?.rows;
    expect([rowsOf('ListPrice'), rowsOf('BathroomsHalf'), rowsOf('ListingURL'), rowsOf('Latitude')]).toEqual([2, 2, 3, 0]);
  });

  it('names what a mapping file reads: its columns, extension columns and templates', async () => {
    const mapping = join(dir, 'mapping.json');
    await writeFile(
      mapping,
      JSON.stringify({
        profile: 'redfin',
        columns: { SalePrice: 'LIST PRICE' },
        extension: ['FAVORITE'],
        templates: { Url: 'https://acme.example/{MLS#}' },
      }),
    );
    const text = `SALE TYPE,PROPERTY TYPE,LIST PRICE,MLS#,FAVORITE\nMLS Listing,Condo,370000,M1,Y\n`;
    const { header } = await shapeOf('mapped.csv', text, { profile: 'redfin', mapping });
    expect(header?.reads).toContainEqual({ column: 'LIST PRICE', fields: ['SalePrice'] });
    expect(header?.reads).toContainEqual({ column: 'FAVORITE', fields: ['ExtensionColumn'] });
    expect(header?.reads).toContainEqual({ column: 'MLS#', fields: ['Url', 'MLSNumber'] });
  });
});
