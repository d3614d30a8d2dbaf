import { describe, expect, it } from 'vitest';
import { type FeedOptions } from '../../src/feed/open-feed.js';
import { fixture, readFeedWith } from '../helpers/feed.js';

const readFeed = (options: Partial<FeedOptions> & { source: string }) => readFeedWith('reso', options);

describe('reso profile', () => {
  it('maps an OData {"value":[...]} document', async () => {
    const { rows, stats } = await readFeed({ source: fixture('reso-odata.json') });
    expect(rows.map((row) => [row.kind, row.line])).toEqual([
      ['listing', 1],
      ['listing', 2],
      ['listing', 3],
    ]);
    expect(rows[0]).toEqual({
      kind: 'listing',
      line: 1,
      key: 'R100',
      listing: {
        SaleType: 'for_sale',
        Status: 'Active',
        CurrencySymbol: '$',
        PropertyType: 'SingleFamilyResidence',
        Bedrooms: 4,
        Bathrooms: 2.5, // BathroomsFull 2 + ½ × BathroomsHalf 1
        Url: 'https://mls.example.com/listing/R100',
        MLSNumber: 'R100',
        YearBuilt: 1987,
        DaysOnMarket: 9,
        LotArea: 10890, // 0.25 acres
        BuildingArea: 2450,
        AreaUnit: 'Square Feet',
        Images: ['https://img.example.com/R100-a.jpg', 'https://img.example.com/R100-b.jpg', 'https://img.example.com/R100-c.jpg'],
        Tours: '3D',
        ParkingSpots: 2,
        Description: 'Mountain views, updated kitchen.',
        Address: '410 Odata Ln',
        City: 'Boulder',
        State: 'CO',
        ZIP: '80302',
        Latitude: 40.015,
        Longitude: -105.2705,
        SalePrice: 875000,
        HOAMonth: 100, // 300 quarterly
      },
    });
    expect(rows[1]).toMatchObject({
      key: 'R101',
      listing: { Status: 'PreOnMarket', Bathrooms: 2, LotArea: 0, HOAMonth: 420, PropertyType: 'Condominium' },
    });
    expect(rows[2]).toMatchObject({ key: 'R102', listing: { Status: 'Sold', BuildingArea: 1750, LotArea: 2000, Bathrooms: 2.5 } });
    expect(stats).toMatchObject({ rows: 3, valid: 3, excluded: 0, filledDefaults: { LotArea: 1, ParkingSpots: 1 } });
  });

  it('maps a plain array: street parts, square metres, acres', async () => {
    const { rows } = await readFeed({ source: fixture('reso-array.json') });
    expect(rows[0]).toMatchObject({
      kind: 'listing',
      line: 1,
      key: 'R200',
      listing: {
        Status: 'Active',
        Address: '15 Array Ave Unit 3C',
        AreaUnit: 'Square Meters',
        BuildingArea: 85,
        LotArea: 100,
        Bathrooms: 1,
      },
    });
    expect(rows[1]).toMatchObject({
      kind: 'listing',
      line: 2,
      key: 'R201',
      listing: { LotArea: 87120, PropertyType: 'Land', Bedrooms: 0 },
    });
  });

  it('reads NDJSON: statuses, exclusions, leases, fees, media order, tours; line numbers count blank lines', async () => {
    const { rows, stats } = await readFeed({ source: fixture('reso.ndjson') });
    expect(rows.map((row) => [row.kind, row.line, row.kind === 'rejected' ? row.reason : row.key])).toEqual([
      ['listing', 1, 'R300'],
      ['excluded', 2, 'R301'],
      ['listing', 3, 'R302'],
      ['listing', 5, 'R303'],
      ['listing', 6, 'R304'],
      ['listing', 7, 'R305'],
      ['excluded', 8, 'R306'],
    ]);
    expect(rows[0]).toMatchObject({
      listing: {
        Bathrooms: 4,
        LotArea: 65340,
        HOAMonth: 100,
        Tours: '3D',
        Images: ['https://img.example.com/R300-1.jpg', 'https://img.example.com/R300-2.jpg'],
      },
    });
    expect(rows[1]).toEqual({ kind: 'excluded', line: 2, key: 'R301', reason: 'StandardStatus Withdrawn: not listed' });
    expect(rows[2]).toMatchObject({ listing: { Status: 'PreOnMarket' } });
    expect(rows[3]).toMatchObject({ listing: { Status: 'Sold', SalePrice: 515000 } });
    expect(rows[4]).toMatchObject({ listing: { SaleType: 'for_rent', RentPrice: 2100 } });
    if (rows[4]?.kind !== 'listing') throw new Error('expected a listing');
    expect(rows[4].listing.SalePrice).toBeUndefined();
    expect(rows[5]).toMatchObject({ listing: { Status: 'Active' } });
    expect(stats).toMatchObject({ rows: 7, valid: 5, excluded: 2, rejected: 0 });
  });

  it('excludes Pending when asked to', async () => {
    const { rows, stats } = await readFeed({ source: fixture('reso.ndjson'), resoPending: 'exclude' });
    expect(rows.find((row) => row.line === 7)).toEqual({
      kind: 'excluded',
      line: 7,
      key: 'R305',
      reason: 'StandardStatus Pending: not listed (Pending is excluded)',
    });
    expect(stats.excluded).toBe(3);
  });

  it('keys by ListingURL', async () => {
    const { rows } = await readFeed({ source: fixture('reso-array.json'), keyType: 'URL' });
    expect(rows.map((row) => (row.kind === 'listing' ? row.key : row.kind))).toEqual([
      'https://mls.example.com/listing/R200',
      'https://mls.example.com/listing/R201',
    ]);
  });
});
