import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FeedOptions } from '../../src/feed/open-feed.js';
import { fixture, readFeedWith } from '../helpers/feed.js';

const readFeed = (options: Partial<FeedOptions> & { source: string }) => readFeedWith('native', options);

describe('native profile', () => {
  it('reads write-shape columns in any case, with JSON and |-separated lists', async () => {
    const { rows, stats } = await readFeed({ source: fixture('native.csv') });
    expect(stats).toMatchObject({ rows: 3, valid: 3, rejected: 0 });
    const [sale, rent, flat] = rows;
    expect(sale).toEqual({
      kind: 'listing',
      line: 2,
      key: 'N100',
      listing: {
        SaleType: 'for_sale',
        Status: 'Active',
        CurrencySymbol: '$',
        PropertyType: 'Single Family',
        Bedrooms: 3,
        Bathrooms: 2.5,
        Url: 'https://example.com/listings/N100',
        MLSNumber: 'N100',
        YearBuilt: 1998,
        DaysOnMarket: 12,
        LotArea: 5000,
        BuildingArea: 1800,
        AreaUnit: 'Square Feet',
        Images: ['https://img.example.com/n100-1.jpg', 'https://img.example.com/n100-2.jpg'],
        Tours: 'OpenHouse',
        ParkingSpots: 2,
        Description: 'Bright, airy home near the park',
        ExtensionColumn: [
          { Key: 'Pool', value: 'yes' },
          { Key: 'View', value: 'lake' },
        ],
        City: 'Springfield',
        State: 'IL',
        ZIP: '62701',
        Latitude: 39.7817,
        Longitude: -89.6501,
        SalePrice: 450000,
      },
    });
    expect(rent).toMatchObject({
      key: 'N101',
      listing: {
        SaleType: 'for_rent',
        RentPrice: 1450,
        DepositFee: 1450,
        SpaceType: 'Entire place',
        Tours: '3D',
        Images: ['https://img.example.com/n101-1.jpg', 'https://img.example.com/n101-2.jpg'],
        ExtensionColumn: [{ Key: 'Furnished', value: 'no' }],
      },
    });
    expect(flat).toMatchObject({
      key: 'N102',
      listing: { CurrencySymbol: '€', AreaUnit: 'Square Meters', Status: 'Sold', BuildingArea: 75 },
    });
    if (flat?.kind !== 'listing') throw new Error('expected a listing');
    expect(flat.listing.Images).toBeUndefined();
    expect(flat.listing.State).toBeUndefined();
  });

  it('sniffs a |-delimited file and reads quoted |-lists inside it', async () => {
    const { rows, stats } = await readFeed({ source: fixture('native-pipe.csv') });
    expect(stats).toMatchObject({ rows: 2, valid: 2 });
    expect(rows[0]).toMatchObject({
      kind: 'listing',
      line: 2,
      key: 'P200',
      listing: {
        Status: 'PreOnMarket',
        Images: ['https://img.example.com/p200-1.jpg', 'https://img.example.com/p200-2.jpg'],
        City: 'Austin',
        SalePrice: 525000,
      },
    });
    expect(rows[1]).toMatchObject({ key: 'P201', listing: { Images: ['https://img.example.com/p201.jpg'], LotArea: 7405 } });
  });

  it('keys by Url, whose column may be spelled URL', async () => {
    const { rows } = await readFeed({ source: fixture('native-pipe.csv'), keyType: 'URL' });
    expect(rows[0]).toMatchObject({ kind: 'listing', key: 'https://example.com/listings/P200' });
  });

  describe('with a feed lacking required columns', () => {
    let dir: string | undefined;
    afterEach(async () => {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
      dir = undefined;
    });

    it('refuses a header without the required columns once, naming them, instead of rejecting every row', async () => {
      dir = await mkdtemp(join(tmpdir(), 'feed-native-'));
      const path = join(dir, 'thin.csv');
      await writeFile(path, 'MLSNumber,Url\nX1,https://example.com/x1\n');
      await expect(readFeed({ source: path })).rejects.toThrow(
        /the header has no column for the required fields SaleType, .*so every row would be rejected/,
      );
    });
  });
});
