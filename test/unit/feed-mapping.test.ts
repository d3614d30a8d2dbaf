import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseMappingFile } from '../../src/feed/mapping-schema.js';
import { openFeed, type FeedOptions } from '../../src/feed/open-feed.js';
import { readFeedWith } from '../helpers/feed.js';

const fixtures = join(import.meta.dirname, '../../fixtures');
const feed = (name: string): string => join(fixtures, 'feeds', name);
const mapping = (name: string): string => join(fixtures, 'mappings', name);

const readFeed = (options: Partial<FeedOptions> & { source: string }) => readFeedWith('native', options);

function problemsOf(thrown: unknown): string[] {
  return (thrown as { details: { problems: string[] } }).details.problems;
}

describe('mapping files', () => {
  it('maps a custom CSV from nothing: columns, constants, defaults, enums, money, units, extension', async () => {
    // profile 'native' is overridden by the file's "profile": null.
    const { rows, stats } = await readFeed({ source: feed('brokerage-custom.csv'), mapping: mapping('from-scratch.json') });
    expect(rows[0]).toEqual({
      kind: 'listing',
      line: 2,
      key: 'B-1001',
      listing: {
        SaleType: 'for_sale',
        Status: 'Active',
        CurrencySymbol: '$',
        PropertyType: 'Single Family',
        Bedrooms: 4,
        Bathrooms: 3.5,
        Url: 'https://brokerage.example.com/b-1001',
        MLSNumber: 'B-1001',
        YearBuilt: 2005,
        DaysOnMarket: 10,
        LotArea: 21780, // 0.5 acres
        BuildingArea: 3200,
        AreaUnit: 'Square Feet',
        ParkingSpots: 2,
        Description: 'Big yard',
        ExtensionColumn: [
          { Key: 'School District', value: 'District 203' },
          { Key: 'Heating', value: 'Forced air' },
        ],
        City: 'Naperville',
        SalePrice: 1250000,
      },
    });
    expect(rows[1]).toMatchObject({
      key: 'B-1002',
      listing: {
        Status: 'PreOnMarket',
        SalePrice: 385000,
        LotArea: 0,
        DaysOnMarket: 0,
        ParkingSpots: 0,
        ExtensionColumn: [{ Key: 'School District', value: 'District 203' }],
      },
    });
    expect(rows[2]).toMatchObject({
      key: 'B-1003',
      listing: { Status: 'Sold', LotArea: 2178, ExtensionColumn: [{ Key: 'Heating', value: 'Radiant' }] },
    });
    expect(stats.filledDefaults).toEqual({ LotArea: 1, DaysOnMarket: 1, ParkingSpots: 1 });
  });

  it('adds to the redfin profile: a renamed column, a default, enum values, extension columns', async () => {
    const { rows, stats } = await readFeed({ source: feed('redfin.csv'), mapping: mapping('redfin-extra.json') });
    expect(rows[0]).toMatchObject({
      key: '90000001',
      listing: {
        PropertyType: 'Condo',
        Description: 'CHI - Uptown',
        ParkingSpots: 1,
        Location: 'CHI - Uptown',
        ExtensionColumn: [
          { Key: 'SOURCE', value: 'MRED' },
          { Key: 'FAVORITE', value: 'N' },
        ],
      },
    });
    expect(rows[1]).toMatchObject({ listing: { PropertyType: 'House' } });
    expect(rows[2]).toMatchObject({ listing: { PropertyType: 'Townhouse' } });
    expect(stats.filledDefaults.ParkingSpots).toBe(6);
  });

  it('lists every problem of an invalid file at once', async () => {
    const thrown = await openFeed({
      source: feed('redfin.csv'),
      profile: 'redfin',
      keyType: 'MLSNumber',
      mapping: mapping('invalid.json'),
    }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: 'MAPPING_INVALID' });
    expect(problemsOf(thrown)).toEqual([
      'profile: Invalid option: expected one of "native"|"redfin"|"reso"',
      'columns.Bathrooms: a source column name is required',
      "columns.Bedroomz: 'Bedroomz' is not a listing field (did you mean Bedrooms?)",
      'units.LotArea: expected {"from": unit, "to": unit} with units sqft, sqm, acres, hectares, or a positive factor',
      "unknown member 'colums' (expected $comment, description, profile, columns, constants, defaults, enums, money, units, extension, templates)",
      'constants.Status: expected one of Active, PreOnMarket, Sold, got "Open"',
      'constants.Bedrooms: expected a number, got "BEDS"',
      'money: City is not a numeric field',
    ]);
    expect((thrown as Error).message).toMatch(
      /^Mapping file .*invalid\.json has 8 problems: profile: .* \(listing fields are SaleType, Status,/,
    );
  });

  it('checks semantic rules: conflicts, enum targets, unit fields', () => {
    const text = JSON.stringify({
      profile: 'redfin',
      columns: { bedrooms: 'BEDS' },
      constants: { Bedrooms: 2 },
      enums: { Status: { Contingent: 'Pending' } },
      units: { City: 2 },
      money: ['SalePrice'],
    });
    expect(() => parseMappingFile('m.json', text)).toThrow(expect.objectContaining({ code: 'MAPPING_INVALID' }));
    try {
      parseMappingFile('m.json', text);
    } catch (thrown) {
      expect(problemsOf(thrown)).toEqual([
        'Bedrooms: set by both "columns" and "constants" (keep one)',
        'enums.Status.Contingent: expected one of Active, PreOnMarket, Sold, got "Pending"',
        'units.City: City is not a numeric field',
      ]);
    }
    expect(() => parseMappingFile('m.json', '{"profile": "redfin",}')).toThrow(/m\.json has 1 problem: not valid JSON/);
    expect(() => parseMappingFile('m.json', '[1]')).toThrow(/it must be a JSON object/);
  });

  describe('against a feed', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'feed-map-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('reports columns the feed does not have, with the columns it has', async () => {
      const path = join(dir, 'm.json');
      await writeFile(path, JSON.stringify({ profile: 'redfin', columns: { Description: 'REMARKS' }, extension: ['AGENT'] }));
      const thrown = await openFeed({ source: feed('redfin.csv'), profile: 'redfin', keyType: 'MLSNumber', mapping: path }).catch(
        (error: unknown) => error,
      );
      expect(thrown).toMatchObject({ code: 'MAPPING_INVALID' });
      expect(problemsOf(thrown)).toEqual([
        "columns.Description: the feed has no column 'REMARKS'",
        "extension: the feed has no column 'AGENT'",
      ]);
      expect((thrown as Error).message).toContain("the feed's columns are 'SALE TYPE', 'SOLD DATE'");
    });

    it('a missing mapping file is MAPPING_INVALID', async () => {
      const thrown = await openFeed({
        source: feed('redfin.csv'),
        profile: 'redfin',
        keyType: 'MLSNumber',
        mapping: join(dir, 'none.json'),
      }).catch((error: unknown) => error);
      expect(thrown).toMatchObject({ code: 'MAPPING_INVALID', message: expect.stringContaining('cannot read it (ENOENT)') });
    });

    it('a numeric factor, money on a profile column, and a mapped key column', async () => {
      const path = join(dir, 'm.json');
      await writeFile(
        path,
        JSON.stringify({ profile: 'native', columns: { MLSNumber: 'Ref' }, units: { BuildingArea: 0.5 }, money: ['SalePrice'] }),
      );
      const csv = join(dir, 'f.csv');
      await writeFile(
        csv,
        'Ref,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots,SalePrice\nQ1,https://e/q1,for_sale,Active,$,Condo,1,1,2000,1,0,1000,Square Feet,0,"$2,500,000"\n',
      );
      const { rows } = await readFeed({ source: csv, mapping: path });
      expect(rows[0]).toMatchObject({ kind: 'listing', key: 'Q1', listing: { MLSNumber: 'Q1', BuildingArea: 500, SalePrice: 2500000 } });
    });

    it('a mapping from nothing without a key column leaves the feed unreadable', async () => {
      const path = join(dir, 'm.json');
      await writeFile(path, JSON.stringify({ profile: null, columns: { Url: 'Link' } }));
      const thrown = await openFeed({ source: feed('brokerage-custom.csv'), profile: 'native', keyType: 'MLSNumber', mapping: path }).catch(
        (error: unknown) => error,
      );
      expect(thrown).toMatchObject({
        code: 'FEED_UNREADABLE',
        message: expect.stringContaining(
          'no column holds the key MLSNumber for --key-type MLSNumber with a mapping file that starts from nothing',
        ),
      });
    });
  });
});
