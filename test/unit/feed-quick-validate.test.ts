import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listingFieldsSchema, LISTING_FIELD_NAMES } from '../../src/domain/listing.js';
import { quickValid } from '../../src/feed/quick-validate.js';

const valid = {
  SaleType: 'for_sale',
  Status: 'Active',
  CurrencySymbol: '$',
  PropertyType: 'Condo',
  Bedrooms: 2,
  Bathrooms: 1.5,
  Url: 'https://e/1',
  MLSNumber: '1',
  YearBuilt: 1990,
  DaysOnMarket: 3,
  LotArea: 0,
  BuildingArea: 800,
  AreaUnit: 'Square Feet',
  ParkingSpots: 1,
};

const anyValue = fc.oneof(
  fc.constantFrom<unknown>(
    'for_sale',
    'for_rent',
    'Active',
    'PreOnMarket',
    'Sold',
    'Square Feet',
    'Square Meters',
    'OpenHouse',
    '3D',
    'Entire place',
    'Room',
    '',
    ' ',
    ' $ ',
    'x',
    0,
    -1,
    1.5,
    2000,
    91,
    -181,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    true,
    [],
    ['a'],
    ['https://e/a.jpg'],
    ['HTTP://E/b.jpg', 'javascript:alert(1)'],
    'https://e/2',
    'javascript:alert(document.domain)//',
    '//e/3',
    [1],
    [{ Key: 'k', value: 'v' }],
    [{ Key: 'k', value: 'v', extra: 1 }],
    [{ Key: 'k' }],
    {},
  ),
  fc.double(),
  fc.string({ maxLength: 5 }),
);

// Only listing fields: the mapper never writes other keys (quickValid's precondition).
const field = fc.constantFrom(...LISTING_FIELD_NAMES);

describe('quick validation of the write shape', () => {
  it('never accepts what zod rejects or would change', () => {
    fc.assert(
      fc.property(fc.dictionary(field, anyValue, { maxKeys: 8 }), fc.boolean(), (patch, startValid) => {
        const values: Record<string, unknown> = startValid ? { ...valid, ...patch } : patch;
        if (!quickValid(values)) return;
        const parsed = listingFieldsSchema.safeParse(values);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(values);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the fast path for ordinary listings, with every optional field', () => {
    expect(quickValid(valid)).toBe(true);
    expect(
      quickValid({
        ...valid,
        Images: ['https://img.example/a.jpg'],
        Tours: '3D',
        Description: 'd',
        ExtensionColumn: [{ Key: 'k', value: 'v' }],
        Location: 'l',
        Address: 'a',
        City: 'c',
        State: 's',
        ZIP: 'z',
        Latitude: 41.9,
        Longitude: -87.6,
        SalePrice: 1,
        UnitAreaPrice: 2,
        HOAMonth: 3,
        ZestimatePrice: 4,
        RentPrice: 5,
        SpaceType: 'Room',
        DepositFee: 6,
      }),
    ).toBe(true);
    expect(quickValid({ ...valid, MLSNumber: ' 1 ' })).toBe(false);
    expect(quickValid({ ...valid, YearBuilt: 1990.5 })).toBe(false);
  });
});
