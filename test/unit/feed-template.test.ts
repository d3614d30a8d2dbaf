/**
 * Mapping files' "templates" (src/feed/field-template.ts): a text field built from a pattern over
 * the record's columns, URL-encoded; checked when the file is loaded and when the feed is opened;
 * a record whose referenced value is empty gets no value. And the rejection of an empty Url
 * points to templates.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../src/feed/field-template.js';
import { parseMappingFile } from '../../src/feed/mapping-schema.js';
import { readFeedWith } from '../helpers/feed.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-template-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function problemsOf(thrown: unknown): string[] {
  return (thrown as { details: { problems: string[] } }).details.problems;
}

/** RESO records without ListingURL, one with a key that needs encoding, one with an empty key. */
const RESO_WITHOUT_URL = [
  { ListingId: 'R 1/A', StandardStatus: 'Active', PropertyType: 'Residential', ListPrice: 500000, City: 'Denver' },
  { ListingId: 'R2', StandardStatus: 'Active', PropertyType: 'Residential', ListPrice: 410000, City: 'Boulder' },
]
  .map((record) => JSON.stringify(record))
  .join('\n');

describe('templates', () => {
  it('builds Url from the record, URL-encoding each value, under any profile', async () => {
    const source = await file('reso.ndjson', RESO_WITHOUT_URL);
    const mapping = await file('url.json', JSON.stringify({ templates: { Url: 'https://acme.example/homes/{listingid}?city={City}' } }));
    const { rows, stats } = await readFeedWith('reso', { source, mapping });
    expect(stats).toMatchObject({ valid: 2, rejected: 0 });
    expect(rows.map((row) => (row.kind === 'listing' ? row.listing.Url : row.kind))).toEqual([
      'https://acme.example/homes/R%201%2FA?city=Denver',
      'https://acme.example/homes/R2?city=Boulder',
    ]);
  });

  it('fills any text field (URL-encoding only in a URL pattern), and gives no value when a referenced value is empty (a required field is then rejected)', async () => {
    const source = await file(
      'native.csv',
      'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots,Street,Town\n' +
        'M1,https://x.example/1,for_sale,Active,$,Condo,2,1,1990,3,0,700,Square Feet,1,1 Main St,Springfield\n' +
        'M2,,for_sale,Active,$,Condo,2,1,1990,3,0,700,Square Feet,1,,Springfield\n',
    );
    const mapping = await file(
      'address.json',
      JSON.stringify({ templates: { Address: '{Street}, {Town}', Url: 'https://x.example/{Street}' } }),
    );
    const { rows } = await readFeedWith('native', { source, mapping });
    // Not a URL pattern: values go in as they are.
    expect(rows[0]).toMatchObject({
      kind: 'listing',
      listing: { Address: '1 Main St, Springfield', Url: 'https://x.example/1%20Main%20St' },
    });
    expect(rows[1]).toMatchObject({ kind: 'rejected', field: 'Url' });
    const reason = rows[1]?.kind === 'rejected' ? rows[1].reason : '';
    expect(reason).toMatch(/^Url: required, but template 'https:\/\/x\.example\/\{Street\}' is empty/);
  });

  it("is MAPPING_INVALID when it names a column the feed lacks, listing the feed's columns", async () => {
    const source = await file('reso2.ndjson', RESO_WITHOUT_URL);
    const mapping = await file('bad-column.json', JSON.stringify({ templates: { Url: 'https://acme.example/{ListingKey}' } }));
    const thrown = await readFeedWith('reso', { source, mapping }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: 'MAPPING_INVALID' });
    expect(problemsOf(thrown)).toEqual(["templates.Url: the feed has no column 'ListingKey'"]);
    expect((thrown as Error).message).toContain(
      "the feed's columns are 'ListingId', 'StandardStatus', 'PropertyType', 'ListPrice', 'City'",
    );
  });

  it('is checked when the file is loaded: the field is a text field, the pattern names a column, nothing else sets the field', () => {
    const thrown = (() => {
      try {
        parseMappingFile(
          'm.json',
          JSON.stringify({
            columns: { Url: 'LINK' },
            templates: {
              Url: 'https://a.example/{ListingId}',
              Bedrooms: '{BEDS}',
              City: 'Springfield',
              Address: '{Street',
              Nothing: '{X}',
            },
          }),
        );
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ code: 'MAPPING_INVALID' });
    expect(problemsOf(thrown)).toEqual([
      "templates.Nothing: 'Nothing' is not a listing field",
      'Url: set by both "columns" and "templates" (keep one)',
      'templates.Bedrooms: Bedrooms is not a text field',
      `templates.City: 'Springfield' has no {Column} in it (a fixed value belongs in "constants")`,
      "templates.Address: '{' without '}' in '{Street'",
    ]);
  });

  it('parses patterns into text and columns', () => {
    expect(parseTemplate('https://a.example/{ListingId}/{ City }')).toEqual({
      parts: [{ text: 'https://a.example/' }, { column: 'ListingId' }, { text: '/' }, { column: 'City' }],
    });
    expect(parseTemplate('a}{b')).toEqual({ problem: "'}' without '{' in 'a}{b'" });
    expect(parseTemplate('x/{}')).toEqual({ problem: "'{}' names no column in 'x/{}'" });
  });
});

describe('an empty Url', () => {
  it('is rejected with a pointer to templates', async () => {
    const source = await file('reso3.ndjson', RESO_WITHOUT_URL);
    const { rows } = await readFeedWith('reso', { source, keyType: 'MLSNumber' });
    const reasons = rows.map((row) => (row.kind === 'rejected' ? row.reason : ''));
    expect(reasons).toEqual([
      'Url: required, but column \'ListingURL\' is empty; map a column that holds it, or build it from a pattern: "templates": {"Url": "https://…/{ListingId}"} in a --mapping file',
      expect.stringContaining('"templates": {"Url"'),
    ]);
  });
});
