/**
 * Deterministic, valid write-shape listings for tests, the demo and benchmarks:
 * listing i has MLSNumber `ML${100000+i}` and Url `https://example.test/listing/${i}`.
 */
import type { SimListingWrite as ListingWrite } from './spec/requests.js';

const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Fairview'] as const;
const TYPES = ['Single Family', 'Condo', 'Townhouse'] as const;

function pick<T>(items: readonly T[], i: number): T {
  const item = items[i % items.length];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Listing number `i` (any non-negative integer), with `overrides` applied last. */
export function sampleListing(i: number, overrides: Partial<ListingWrite> = {}): ListingWrite {
  // Why every third listing is a rental: list filters and Price rendering get both sale types.
  const forRent = i % 3 === 2;
  const base: ListingWrite = {
    SerialNumber: 'bot-demo',
    SaleType: forRent ? 'for_rent' : 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: pick(TYPES, i),
    Bedrooms: 1 + (i % 5),
    Bathrooms: 1 + (i % 4) / 2,
    Url: `https://example.test/listing/${i}`,
    MLSNumber: `ML${100000 + i}`,
    YearBuilt: 1950 + (i % 70),
    DaysOnMarket: i % 90,
    LotArea: 2000 + (i % 50) * 100,
    BuildingArea: 800 + (i % 40) * 50,
    AreaUnit: 'Square Feet',
    Images: [`https://example.test/img/${i}-1.jpg`, `https://example.test/img/${i}-2.jpg`],
    ParkingSpots: i % 3,
    Description: `Sample listing ${i}`,
    Address: `${100 + i} Main St`,
    City: pick(CITIES, i),
    State: 'CA',
    ZIP: String(90000 + (i % 1000)).padStart(5, '0'),
    Latitude: 34 + (i % 100) / 1000,
    Longitude: -118 - (i % 100) / 1000,
    ...(forRent ? { RentPrice: 1500 + (i % 20) * 100, DepositFee: 1500 } : { SalePrice: 300000 + i * 1000 }),
  };
  return { ...base, ...overrides };
}
