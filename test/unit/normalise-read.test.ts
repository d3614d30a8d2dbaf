import { describe, expect, it } from 'vitest';
import { normaliseReadItem, normaliseReadItemWithIssues } from '../../src/api/normalise-read.js';
import { listingReadSchema, type ListingRead } from '../../src/api/schemas.js';
import { diffListing } from '../../src/domain/compare.js';
import { EMPTY_READ_FORMS, renderListing } from '../../src/sim/read-shape.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { EmptyReadForm, OptionalReadField } from '../../src/sim/types.js';

/** A read item with every member empty, as the service returns a bare listing. */
function blank(overrides: Partial<ListingRead> = {}): ListingRead {
  return {
    ID: 7,
    PropertyType: '',
    SaleType: '',
    Status: '',
    Images: '',
    CurrencySymbol: '',
    Price: '',
    State: '',
    City: '',
    Address: '',
    ZIP: '',
    Area: '',
    Url: '',
    Tours: '',
    Description: '',
    SpaceType: '',
    LATITUDE: null,
    LONGITUDE: null,
    Bathrooms: '',
    Bedrooms: '',
    YearBuilt: '',
    MLSNumber: '',
    DaysOnMarket: '',
    LotArea: '',
    BuildingArea: '',
    ParkingSpots: '',
    RentPrice: '',
    DepositFee: '',
    SalePrice: '',
    UnitAreaPrice: '',
    ZestimatePrice: '',
    HOAMonth: '',
    ExtensionColumn: '',
    ...overrides,
  };
}

const fieldsOf = (overrides: Partial<ListingRead>) => normaliseReadItem(blank(overrides)).fields;

describe('normaliseReadItem', () => {
  it('turns a full read item into the write shape types', () => {
    const remote = normaliseReadItem(
      blank({
        ID: 1234,
        PropertyType: ' Condo ',
        SaleType: 'For Sale',
        Status: 'Active',
        CurrencySymbol: '$',
        Url: 'https://x.test/1',
        MLSNumber: ' ML1 ',
        Bedrooms: '3',
        Bathrooms: '2.5',
        YearBuilt: '1998',
        DaysOnMarket: '12',
        LotArea: '5,000',
        BuildingArea: '1800',
        ParkingSpots: '2',
        SalePrice: '$1,250,000',
        Price: '999',
        City: 'Austin',
        State: 'TX',
        ZIP: '78701',
        Address: '1 Main St',
        Description: 'Nice',
        Tours: '3D',
        SpaceType: 'Entire place',
        LATITUDE: 30.26,
        LONGITUDE: -97.74,
        Images: '["https://i.test/a.jpg","https://i.test/b.jpg"]',
        ExtensionColumn: '[{"Key":"Pool","value":"yes"}]',
        HOAMonth: '120',
        UnitAreaPrice: '694.44',
        ZestimatePrice: '',
      }),
    );
    expect(remote).toEqual({
      id: '1234',
      fields: {
        PropertyType: 'Condo',
        SaleType: 'for_sale',
        Status: 'Active',
        CurrencySymbol: '$',
        Url: 'https://x.test/1',
        MLSNumber: 'ML1',
        Bedrooms: 3,
        Bathrooms: 2.5,
        YearBuilt: 1998,
        DaysOnMarket: 12,
        LotArea: 5000,
        BuildingArea: 1800,
        ParkingSpots: 2,
        SalePrice: 1250000,
        City: 'Austin',
        State: 'TX',
        ZIP: '78701',
        Address: '1 Main St',
        Description: 'Nice',
        Tours: '3D',
        SpaceType: 'Entire place',
        Latitude: 30.26,
        Longitude: -97.74,
        Images: ['https://i.test/a.jpg', 'https://i.test/b.jpg'],
        ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
        HOAMonth: 120,
        UnitAreaPrice: 694.44,
      },
    });
  });

  it('never sets AreaUnit or Location (the read shape does not return them)', () => {
    const fields = fieldsOf({ Area: '1800 Square Feet' });
    expect(fields).not.toHaveProperty('AreaUnit');
    expect(fields).not.toHaveProperty('Location');
  });

  describe('numbers from strings', () => {
    it.each([
      ['3', 3],
      ['3.0', 3],
      ['2.5', 2.5],
      ['1,250,000', 1250000],
      ['$1,250,000', 1250000],
      [' 42 ', 42],
      ['USD 900', 900],
      ['1,200 sqft', 1200],
      ['.5', 0.5],
      ['0', 0],
    ])('%j → %j', (text, expected) => {
      expect(fieldsOf({ Bedrooms: text }).Bedrooms).toBe(expected);
    });

    it.each(['', '   ', '\t'])('%j is absent', (text) => {
      expect(fieldsOf({ Bedrooms: text })).not.toHaveProperty('Bedrooms');
    });

    it.each(['abc', 'N/A', '12abc34', '1.2.3', '-', '$'])('junk %j is absent and reported', (text) => {
      const { listing, issues } = normaliseReadItemWithIssues(blank({ Bedrooms: text }));
      expect(listing.fields).not.toHaveProperty('Bedrooms');
      expect(issues).toContainEqual({ field: 'Bedrooms', value: text });
    });
  });

  describe('SaleType', () => {
    it.each(['for_sale', 'For Sale', 'for sale', 'Sale', 'FOR SALE', 'Buy', 'for-sale'])('%j → for_sale', (text) => {
      expect(fieldsOf({ SaleType: text }).SaleType).toBe('for_sale');
    });
    it.each(['for_rent', 'For Rent', 'for rent', 'Rent', 'Lease', 'Rental', 'RENT'])('%j → for_rent', (text) => {
      expect(fieldsOf({ SaleType: text }).SaleType).toBe('for_rent');
    });
    it('leaves an unknown form absent and reports it instead of throwing', () => {
      const { listing, issues } = normaliseReadItemWithIssues(blank({ SaleType: 'Auction' }));
      expect(listing.fields).not.toHaveProperty('SaleType');
      expect(issues).toEqual([{ field: 'SaleType', value: 'Auction' }]);
    });
  });

  describe('Status', () => {
    it.each([
      ['Active', 'Active'],
      ['active', 'Active'],
      ['ACTIVE', 'Active'],
      ['Sold', 'Sold'],
      ['sold ', 'Sold'],
      ['PreOnMarket', 'PreOnMarket'],
      ['Pre On Market', 'PreOnMarket'],
      ['pre-on-market', 'PreOnMarket'],
      ['pre_on_market', 'PreOnMarket'],
    ])('%j → %j', (text, expected) => {
      expect(fieldsOf({ Status: text }).Status).toBe(expected);
    });
    it('leaves an unknown status absent', () => {
      expect(fieldsOf({ Status: 'Withdrawn' })).not.toHaveProperty('Status');
    });
  });

  describe('Images', () => {
    it.each([
      ['["a.jpg","b.jpg"]', ['a.jpg', 'b.jpg']],
      ['[]', []],
      ['a.jpg,b.jpg', ['a.jpg', 'b.jpg']],
      ['a.jpg, b.jpg ,', ['a.jpg', 'b.jpg']],
      ['a.jpg;b.jpg', ['a.jpg', 'b.jpg']],
      ['a.jpg; b.jpg', ['a.jpg', 'b.jpg']],
      ['a.jpg', ['a.jpg']],
      ['', []],
      ['  ', []],
      ['["a.jpg", 3, null, " "]', ['a.jpg']],
    ])('%j → %j', (text, expected) => {
      expect(fieldsOf({ Images: text }).Images).toEqual(expected);
    });
    it('leaves a broken JSON array absent and reports it', () => {
      const { listing, issues } = normaliseReadItemWithIssues(blank({ Images: '["a.jpg",' }));
      expect(listing.fields).not.toHaveProperty('Images');
      expect(issues.map((i) => i.field)).toEqual(['Images']);
    });
  });

  describe('ExtensionColumn', () => {
    it.each([
      ['[{"Key":"Pool","value":"yes"}]', [{ Key: 'Pool', value: 'yes' }]],
      ['[{"key":"Pool","value":"yes"}]', [{ Key: 'Pool', value: 'yes' }]],
      [
        '{"Pool":"yes","View":"lake"}',
        [
          { Key: 'Pool', value: 'yes' },
          { Key: 'View', value: 'lake' },
        ],
      ],
      ['[{"Key":"Floors","value":2}]', [{ Key: 'Floors', value: '2' }]],
      ['[]', []],
      ['', []],
    ])('%j → %j', (text, expected) => {
      expect(fieldsOf({ ExtensionColumn: text }).ExtensionColumn).toEqual(expected);
    });
    it.each(['not json', '[1,2]', '"text"', '[{"value":"no key"}]'])('junk %j is absent and reported', (text) => {
      const { listing, issues } = normaliseReadItemWithIssues(blank({ ExtensionColumn: text }));
      expect(listing.fields).not.toHaveProperty('ExtensionColumn');
      expect(issues.map((i) => i.field)).toEqual(['ExtensionColumn']);
    });
  });

  it('maps LATITUDE/LONGITUDE to Latitude/Longitude and null to absent', () => {
    expect(fieldsOf({ LATITUDE: 40.5, LONGITUDE: -73.9 })).toMatchObject({ Latitude: 40.5, Longitude: -73.9 });
    const fields = fieldsOf({});
    expect(fields).not.toHaveProperty('Latitude');
    expect(fields).not.toHaveProperty('Longitude');
  });

  it('reads 0 as no value for the optional numbers (how the service reads an unset Latitude back), null and a left-out member too', () => {
    const zero = fieldsOf({ LATITUDE: 0, LONGITUDE: 0, SalePrice: '0', HOAMonth: 0, DepositFee: null, Price: '0', SaleType: 'For Sale' });
    for (const field of ['Latitude', 'Longitude', 'SalePrice', 'HOAMonth', 'DepositFee']) expect(zero).not.toHaveProperty(field);
    const { ZestimatePrice: _z, Description: _d, City: _c, ...rest } = blank({ ZestimatePrice: '5', Description: 'x', City: 'y' });
    const left = normaliseReadItemWithIssues(rest);
    expect(left.listing.fields).not.toHaveProperty('ZestimatePrice');
    expect(left.listing.fields).not.toHaveProperty('Description');
    expect(left.issues).toEqual([]);
    // A required number keeps its 0: a studio has 0 bedrooms.
    expect(fieldsOf({ Bedrooms: '0' }).Bedrooms).toBe(0);
  });

  describe('empty is empty: every form the simulator may render an unset optional field in equals a feed without it', () => {
    const cases = (Object.entries(EMPTY_READ_FORMS) as Array<[OptionalReadField, readonly EmptyReadForm[]]>).flatMap(([field, forms]) =>
      forms.map((form) => [field, form] as const),
    );
    it.each(cases)('%s rendered %s', (field, form) => {
      const { SerialNumber: _s, ...feed } = sampleListing(4, { [field]: undefined });
      const item = renderListing({ ...sampleListing(4, { [field]: undefined }), ID: '9' }, { empty: { [field]: form } });
      const { listing, issues } = normaliseReadItemWithIssues(listingReadSchema.parse(item));
      expect(issues).toEqual([]);
      expect(diffListing(feed, listing.fields, { volatileFields: [] })).toEqual([]);
    });
  });

  it('treats Tours "" as absent and reads known tour kinds', () => {
    expect(fieldsOf({ Tours: '' })).not.toHaveProperty('Tours');
    expect(fieldsOf({ Tours: 'OpenHouse' }).Tours).toBe('OpenHouse');
    expect(fieldsOf({ Tours: 'open house' }).Tours).toBe('OpenHouse');
    expect(fieldsOf({ Tours: '3d' }).Tours).toBe('3D');
  });

  it('trims strings and leaves empty text absent', () => {
    const fields = fieldsOf({ City: '  Austin  ', Address: '   ', Description: '' });
    expect(fields.City).toBe('Austin');
    expect(fields).not.toHaveProperty('Address');
    expect(fields).not.toHaveProperty('Description');
  });

  describe('Price', () => {
    it('is ignored when SalePrice/RentPrice are given', () => {
      expect(fieldsOf({ SaleType: 'for_sale', Price: '1', SalePrice: '500000' }).SalePrice).toBe(500000);
      expect(fieldsOf({ SaleType: 'for_rent', Price: '1', RentPrice: '2500' }).RentPrice).toBe(2500);
    });
    it('fills the price the SaleType calls for when that one is empty', () => {
      expect(fieldsOf({ SaleType: 'Sale', Price: '$450,000' })).toMatchObject({ SalePrice: 450000 });
      expect(fieldsOf({ SaleType: 'Sale', Price: '$450,000' })).not.toHaveProperty('RentPrice');
      expect(fieldsOf({ SaleType: 'Rent', Price: '1,800' })).toMatchObject({ RentPrice: 1800 });
      expect(fieldsOf({ SaleType: 'Rent', Price: '1,800' })).not.toHaveProperty('SalePrice');
    });
    it('is dropped when the SaleType is unknown', () => {
      const fields = fieldsOf({ SaleType: '', Price: '100' });
      expect(fields).not.toHaveProperty('SalePrice');
      expect(fields).not.toHaveProperty('RentPrice');
    });
  });

  it('survives an item made of junk: no throw, id kept, nothing invented', () => {
    const junk = blank({
      ID: 99,
      SaleType: '???',
      Status: '42',
      Images: '[{',
      ExtensionColumn: '{{',
      Tours: 'VR',
      SpaceType: 'Castle',
      Bedrooms: 'many',
      Price: 'call us',
      LATITUDE: Number.NaN,
    });
    const { listing, issues } = normaliseReadItemWithIssues(junk);
    expect(listing).toEqual({ id: '99', fields: {} });
    expect(issues.map((i) => i.field).sort()).toEqual(
      ['Bedrooms', 'ExtensionColumn', 'Images', 'SaleType', 'SpaceType', 'Status', 'Tours'].sort(),
    );
  });
});
