/**
 * Seeded RESO Data Dictionary records: Property members the `reso` feed profile reads, and
 * Media photos. The same PRNG seed and the same calls give the same records.
 */
import { formatStamp } from './instant.js';
import type { ResoMedia, ResoProperty, ResoStatus } from './types.js';

const PLACES = [
  { city: 'Boulder', state: 'CO', zip: '80302', lat: 40.015, lon: -105.2705 },
  { city: 'Denver', state: 'CO', zip: '80205', lat: 39.7392, lon: -104.9903 },
  { city: 'Austin', state: 'TX', zip: '78704', lat: 30.2672, lon: -97.7431 },
  { city: 'Seattle', state: 'WA', zip: '98103', lat: 47.6062, lon: -122.3321 },
  { city: 'Chicago', state: 'IL', zip: '60614', lat: 41.8781, lon: -87.6298 },
  { city: 'Raleigh', state: 'NC', zip: '27603', lat: 35.7796, lon: -78.6382 },
] as const;

const STREETS = ['Maple Ave', 'Oak St', 'Pearl St', 'Cedar Ln', 'Hillside Dr', 'Lake Rd', 'Elm Ct', 'River Way'] as const;
const REMARKS = [
  'Updated kitchen.',
  'Close to parks and schools.',
  'Mountain views.',
  'Quiet street, big yard.',
  'Walk to downtown.',
] as const;

/** Statuses of seeded records, weighted as a typical MLS's listed inventory (off-market ones come from admin routes). */
const SEEDED_STATUSES: readonly ResoStatus[] = [
  ...Array<ResoStatus>(14).fill('Active'),
  'Active Under Contract',
  'Coming Soon',
  'Pending',
  'Pending',
  'Closed',
  'Closed',
];

/** The keys of the n-th seeded record (n ≥ 1): ListingKey K0000001, ListingId 20000001. */
export function keyOf(n: number): { ListingKey: string; ListingId: string } {
  return { ListingKey: `K${String(n).padStart(7, '0')}`, ListingId: String(20_000_000 + n) };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

const between = (random: () => number, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

/**
 * `count` photos of a record, stamped `stampMs`. Returned in a shuffled order on purpose: RESO
 * servers do not promise Media in `Order`, and a client that forgets to sort must fail a test.
 */
export function makePhotos(
  random: () => number,
  listingKey: string,
  count: number,
  stampMs: number,
  urls?: readonly string[],
): ResoMedia[] {
  const stamp = formatStamp(stampMs);
  const photos = Array.from({ length: count }, (_, index): ResoMedia => {
    const order = index + 1;
    return {
      MediaKey: `${listingKey}-${stampMs}-${order}`,
      MediaURL: urls?.[index] ?? `https://photos.reso-sim.test/${listingKey}/${stampMs}-${order}.jpg`,
      Order: order,
      ResourceRecordKey: listingKey,
      ModificationTimestamp: stamp,
      MediaCategory: 'Photo',
    };
  });
  for (let index = photos.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [photos[index], photos[other]] = [photos[other] as ResoMedia, photos[index] as ResoMedia];
  }
  return photos;
}

export interface MadeRecord {
  property: ResoProperty;
  media: ResoMedia[];
}

/** The n-th seeded record, stamped `stampMs`, with `photos` photos (random 0..8 when absent). */
export function makeRecord(
  random: () => number,
  n: number,
  stampMs: number,
  options: { status?: ResoStatus; photos?: number } = {},
): MadeRecord {
  const { ListingKey, ListingId } = keyOf(n);
  const place = pick(random, PLACES);
  const lease = random() < 0.1;
  const beds = between(random, 1, 5);
  const stamp = formatStamp(stampMs);
  const photos = options.photos ?? between(random, 0, 8);
  const property: ResoProperty = {
    ListingKey,
    ListingId,
    ModificationTimestamp: stamp,
    StandardStatus: options.status ?? pick(random, SEEDED_STATUSES),
    MlgCanView: true,
    ListPrice: lease ? between(random, 12, 60) * 100 : between(random, 150, 1500) * 1000,
    City: place.city,
    StateOrProvince: place.state,
    PostalCode: place.zip,
    UnparsedAddress: `${between(random, 1, 9999)} ${pick(random, STREETS)}`,
    BedroomsTotal: beds,
    BathroomsTotalInteger: between(random, 1, beds),
    LivingArea: between(random, 50, 400) * 10,
    LivingAreaUnits: 'Square Feet',
    YearBuilt: between(random, 1900, 2024),
    PropertyType: lease ? 'Residential Lease' : 'Residential',
    PublicRemarks: pick(random, REMARKS),
    Latitude: Math.round((place.lat + (random() - 0.5) / 10) * 1e6) / 1e6,
    Longitude: Math.round((place.lon + (random() - 0.5) / 10) * 1e6) / 1e6,
    PhotosChangeTimestamp: stamp,
    PhotosCount: photos,
    ListingURL: `https://listings.reso-sim.test/${ListingId}`,
  };
  return { property, media: makePhotos(random, ListingKey, photos, stampMs) };
}
