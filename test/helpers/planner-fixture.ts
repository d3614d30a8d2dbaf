/** Listings and remote copies for the domain tests (planner, compare, hash). */
import fc from 'fast-check';
import { AREA_UNITS, type ListingFields } from '../../src/domain/listing.js';
import type { RemoteListing } from '../../src/domain/snapshot/remote.js';

/** A valid feed listing with key `mls`; fields overridable. */
export function listing(mls: string, overrides: Partial<ListingFields> = {}): ListingFields {
  return {
    SaleType: 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: 'Condo',
    Bedrooms: 3,
    Bathrooms: 2.5,
    Url: `https://www.redfin.com/CA/San-Jose/home/${mls}`,
    MLSNumber: mls,
    YearBuilt: 1999,
    DaysOnMarket: 12,
    LotArea: 0,
    BuildingArea: 1450,
    AreaUnit: 'Square Feet',
    ParkingSpots: 1,
    Images: [`https://img.example/${mls}/1.jpg`],
    City: 'San Jose',
    Latitude: 37.3382,
    Longitude: -121.8863,
    SalePrice: 1_250_000,
    ...overrides,
  };
}

/** What the read shape shows of a listing: everything but AreaUnit and Location. */
export function shown(fields: ListingFields): Partial<ListingFields> {
  const { AreaUnit: _unit, Location: _location, ...rest } = fields;
  return rest;
}

export function remote(id: string, fields: ListingFields): RemoteListing {
  return { id, fields: shown(fields) };
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8'];

function listingArb(key: string): fc.Arbitrary<ListingFields> {
  return fc
    .record({
      City: fc.constantFrom('Oakland', 'San Jose', ' San Jose '),
      SalePrice: fc.constantFrom(100, 100.001, 200),
      DaysOnMarket: fc.nat(3),
      AreaUnit: fc.constantFrom(...AREA_UNITS),
      Location: fc.constantFrom(undefined, 'Downtown'),
      Images: fc.constantFrom<string[] | undefined>(undefined, ['a'], ['a', 'b'], ['b', 'a']),
      Description: fc.constantFrom(undefined, '', 'Nice'),
      Latitude: fc.constantFrom(37.1, 37.1000001, 37.2),
    })
    .map((fields) => listing(key, fields));
}

/** Random feeds, remotes (keys may repeat) and ledgers over a few keys, for the planner's properties. */
export const scenarioArb = fc.record({
  feed: fc.subarray(KEYS).chain((keys) => fc.tuple(...keys.map(listingArb))),
  // Keys may repeat: the remote can hold duplicates, which scope all cleans up.
  remote: fc.array(fc.constantFrom(...KEYS).chain(listingArb), { maxLength: 12 }),
  ledger: fc.array(fc.constantFrom(...KEYS).chain(listingArb), { maxLength: 8 }),
});
