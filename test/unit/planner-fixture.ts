/** Listings and remote copies for the domain tests (planner, compare, hash). */
import type { ListingFields } from '../../src/domain/listing.js';
import type { RemoteListing } from '../../src/domain/remote.js';

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
