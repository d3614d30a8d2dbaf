// Benchmark data by seed: a CSV feed (redfin or native), and the chatbot's remote and ledger (1% changed, 0.5% new, 0.5% gone).
// Why each listing is a pure function of (seed, index): feed and remote, built in different processes, agree sharing nothing.
import { seededRandom } from '../src/sim/faults.js';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { listListingsDataSchema, type ListingRead } from '../src/api/schemas.js';
import { listingHash } from '../src/domain/hash.js';
import type { LedgerEntry } from '../src/domain/ledger-entry.js';
import type { ListingFields } from '../src/domain/listing.js';
import type { RemoteRows } from '../src/domain/snapshot/remote.js';
import { decodeLedgerEntry, encodeLedgerEntry } from '../src/store/ledger.js';
import { PageCollector } from '../src/sync/snapshot.js';

export type FeedProfile = 'redfin' | 'native';

export interface FeedShape {
  listings: number;
  seed: number;
  profile: FeedProfile;
}

/** The plan a correct planner makes for the generated feed against the generated remote. */
export type ExpectedPlan = Record<'creates' | 'updates' | 'deletes' | 'unchanged', number>;

type Role = 'same' | 'changed' | 'new' | 'gone';

/** A listing's redfin cells, the listing the importer makes of them, and the remote's older version if changed. */
interface Generated {
  cells: Record<string, string>;
  listing: ListingFields;
  previous: ListingFields;
}

const CITIES = ['Chicago', 'Evanston', 'Oak Park', 'Skokie', 'Cicero'];
const PLACES = ['CHI - Uptown', 'CHI - Rogers Park', 'CHI - Lincoln Park', 'CHI - Loop', 'Park Place Tower', 'Andersonville'];
const STREETS = ['Montrose Ave', 'Pratt Blvd', 'Irving Park Rd', 'Sheridan Rd', 'Clark St', 'Halsted St', 'Belmont Ave'];
const TYPES = ['Condo/Co-op', 'Single Family Residential', 'Townhouse', 'Multi-Family (2-4 Unit)'];

export const REDFIN_HEADER = [
  ...'SALE TYPE,SOLD DATE,PROPERTY TYPE,ADDRESS,CITY,STATE OR PROVINCE,ZIP OR POSTAL CODE,PRICE,BEDS,BATHS,LOCATION,SQUARE FEET'.split(','),
  ...'LOT SIZE,YEAR BUILT,DAYS ON MARKET,$/SQUARE FEET,HOA/MONTH,STATUS,NEXT OPEN HOUSE START TIME,NEXT OPEN HOUSE END TIME'.split(','),
  'URL (SEE https://www.redfin.com/buy-a-home/comparative-market-analysis FOR INFO ON PRICING)',
  ...'SOURCE,MLS#,FAVORITE,INTERESTED,LATITUDE,LONGITUDE'.split(','),
];
const NATIVE_HEADER = [
  ...'SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,Url,MLSNumber,YearBuilt,DaysOnMarket,LotArea,BuildingArea'.split(','),
  ...'AreaUnit,Tours,ParkingSpots,Location,Address,City,State,ZIP,Latitude,Longitude,SalePrice,RentPrice,UnitAreaPrice,HOAMonth'.split(','),
];

/** The simulator's PRNG (mulberry32) seeded from (seed, index, salt), so any listing can be made on its own. */
function randomFor(seed: number, index: number, salt: number): () => number {
  return seededRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35) ^ Math.imul(salt, 0x27d4eb2f));
}

function roleOf(seed: number, index: number): Role {
  const r = randomFor(seed, index, 1)();
  if (r < 0.005) return 'new';
  if (r < 0.01) return 'gone';
  if (r < 0.02) return 'changed';
  return 'same';
}

/** Walks the universe of listings until the feed has `listings` of them; both sides walk it alike. */
function* universe(shape: FeedShape): Generator<{ index: number; role: Role }> {
  let inFeed = 0;
  for (let index = 0; inFeed < shape.listings; index++) {
    const role = roleOf(shape.seed, index);
    if (role !== 'gone') inFeed++;
    yield { index, role };
  }
}

/** Redfin columns whose cell is the text of a listing field ('' when unset); the cells not given here or in generate() are empty. */
const SAME_TEXT = [
  ...'PROPERTY TYPE:PropertyType,ADDRESS:Address,CITY:City,STATE OR PROVINCE:State,ZIP OR POSTAL CODE:ZIP,LOCATION:Location'.split(','),
  ...'MLS#:MLSNumber,DAYS ON MARKET:DaysOnMarket,$/SQUARE FEET:UnitAreaPrice,HOA/MONTH:HOAMonth'.split(','),
].map((pair) => pair.split(':') as [column: string, field: string]);
const FIXED_CELLS = { SOURCE: 'MRED', FAVORITE: 'N', INTERESTED: 'Y' };
const fieldText = (listing: ListingFields, field: string): string => String((listing as Readonly<Record<string, unknown>>)[field] ?? '');

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: () => number, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

/** The listing at `index`: its redfin cells and the write shape the redfin profile makes of them. */
function generate(seed: number, index: number): Generated {
  const random = randomFor(seed, index, 2);
  const rent = random() < 0.05;
  const type = pick(random, TYPES);
  const condo = type === 'Condo/Co-op';
  const beds = random() < 0.05 ? undefined : int(random, 1, 5);
  const baths = random() < 0.05 ? undefined : int(random, 2, 8) / 2;
  const sqft = random() < 0.3 ? undefined : int(random, 500, 4000);
  const lot = condo ? undefined : int(random, 1000, 10000);
  const year = random() < 0.05 ? undefined : int(random, 1900, 2022);
  const days = int(random, 0, 200);
  const price = rent ? int(random, 8, 60) * 100 : int(random, 1000, 20000) * 100;
  const hoa = condo ? int(random, 100, 900) : undefined;
  const statusText = random() < 0.9 ? 'Active' : pick(random, ['Pre On-Market', 'Coming Soon']);
  const openHouse = random() < 0.2;
  const lat = (41.6 + random() * 0.4).toFixed(7);
  const lon = (-87.9 + random() * 0.4).toFixed(7);
  const city = pick(random, CITIES);
  const zip = String(60600 + int(random, 1, 99));
  const address = `${int(random, 100, 9999)} W ${pick(random, STREETS)}${condo ? ` Unit ${int(random, 1, 40)}${pick(random, ['A', 'B', 'C'])}` : ''}`;
  const place = pick(random, PLACES);
  const mls = String(10_000_000 + index);
  const url = `https://www.redfin.com/IL/${city.replace(/ /g, '-')}/${address.replace(/ /g, '-')}-${zip}/home/${20_000_000 + index}`;
  const perSqft = sqft === undefined || rent ? undefined : Math.round(price / sqft);
  const text = (value: number | undefined): string => (value === undefined ? '' : String(value));
  // Why the zeros: the redfin profile's documented defaults for empty cells (profiles/redfin.ts).
  const listing: ListingFields = {
    SaleType: rent ? 'for_rent' : 'for_sale',
    Status: statusText === 'Active' ? 'Active' : 'PreOnMarket',
    CurrencySymbol: '$',
    PropertyType: type,
    Bedrooms: beds ?? 0,
    Bathrooms: baths ?? 0,
    Url: url,
    MLSNumber: mls,
    YearBuilt: year ?? 0,
    DaysOnMarket: days,
    LotArea: lot ?? 0,
    BuildingArea: sqft ?? 0,
    AreaUnit: 'Square Feet',
    ParkingSpots: 0,
    Location: place,
    Address: address,
    City: city,
    State: 'IL',
    ZIP: zip,
    Latitude: Number(lat),
    Longitude: Number(lon),
    ...(openHouse ? { Tours: 'OpenHouse' as const } : {}),
    ...(rent ? { RentPrice: price } : { SalePrice: price }),
    ...(perSqft === undefined ? {} : { UnitAreaPrice: perSqft }),
    ...(hoa === undefined ? {} : { HOAMonth: hoa }),
  };
  const cells: Record<string, string> = {
    ...Object.fromEntries(SAME_TEXT.map(([column, field]) => [column, fieldText(listing, field)])),
    'SALE TYPE': rent ? 'For Rent' : 'MLS Listing',
    PRICE: String(price),
    BEDS: text(beds),
    // Redfin writes baths with a decimal ("2.0"), as its exports do.
    BATHS: baths === undefined ? '' : baths.toFixed(1),
    'SQUARE FEET': text(sqft),
    'LOT SIZE': text(lot),
    'YEAR BUILT': text(year),
    STATUS: statusText,
    'NEXT OPEN HOUSE START TIME': openHouse ? 'October-8-2022 11:00 AM' : '',
    'NEXT OPEN HOUSE END TIME': openHouse ? 'October-8-2022 01:00 PM' : '',
    [REDFIN_HEADER[20] as string]: url,
    ...FIXED_CELLS,
    LATITUDE: lat,
    LONGITUDE: lon,
  };
  const older = rent ? { RentPrice: price + 100 } : { SalePrice: price + 5000 };
  return { cells, listing, previous: { ...listing, ...older } };
}

const csvCell = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const nativeCells = (listing: ListingFields): Record<string, string> =>
  Object.fromEntries(NATIVE_HEADER.map((name) => [name, fieldText(listing, name)]));

const PLANNED: Record<Role, keyof ExpectedPlan> = { same: 'unchanged', changed: 'updates', new: 'creates', gone: 'deletes' };

/** Writes the feed as CSV to `path`; returns its size and the plan expected against generateRemote. */
export async function writeFeedCsv(path: string, shape: FeedShape): Promise<{ rows: number; bytes: number; expected: ExpectedPlan }> {
  const header: readonly string[] = shape.profile === 'redfin' ? REDFIN_HEADER : NATIVE_HEADER;
  const out = createWriteStream(path, { encoding: 'utf8' });
  const expected: ExpectedPlan = { creates: 0, updates: 0, deletes: 0, unchanged: 0 };
  let batch = header.map(csvCell).join(',') + '\r\n';
  let bytes = 0;
  let rows = 0;
  for (const { index, role } of universe(shape)) {
    expected[PLANNED[role]]++;
    if (role === 'gone') continue;
    const made = generate(shape.seed, index);
    const cells = shape.profile === 'redfin' ? made.cells : nativeCells(made.listing);
    batch += header.map((name) => csvCell(cells[name] ?? '')).join(',') + '\r\n';
    rows++;
    if (batch.length > 1 << 20) {
      bytes += Buffer.byteLength(batch);
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  bytes += Buffer.byteLength(batch);
  out.end(batch);
  await once(out, 'finish');
  return { rows, bytes, expected };
}

/** Read-shape fields that carry the write-shape field of the same name, as text, and those always empty. */
const SAME_NAMED =
  'State City Address ZIP Tours Bathrooms Bedrooms YearBuilt DaysOnMarket LotArea BuildingArea ParkingSpots RentPrice SalePrice UnitAreaPrice HOAMonth';
const EMPTY = 'Images Description SpaceType DepositFee ZestimatePrice ExtensionColumn';

/** The read shape the service returns for a listing it holds (api-spec 2.4: text, coordinates as numbers). */
function readItem(id: number, listing: ListingFields): ListingRead {
  const fields = listing as unknown as Readonly<Record<string, number | string | undefined>>;
  const text = (value: number | string | undefined): string => (value === undefined ? '' : String(value));
  return {
    ...Object.fromEntries(EMPTY.split(' ').map((name) => [name, ''])),
    ...Object.fromEntries(SAME_NAMED.split(' ').map((name) => [name, text(fields[name])])),
    ID: id,
    PropertyType: listing.PropertyType,
    SaleType: listing.SaleType,
    Status: listing.Status,
    CurrencySymbol: listing.CurrencySymbol,
    Price: text(listing.SalePrice ?? listing.RentPrice),
    Area: text(listing.BuildingArea),
    Url: listing.Url,
    LATITUDE: listing.Latitude ?? null,
    LONGITUDE: listing.Longitude ?? null,
    MLSNumber: listing.MLSNumber,
  } as ListingRead;
}

/** Every listing the remote holds, in the version it holds. */
function* remoteListings(shape: FeedShape): Generator<{ index: number; held: ListingFields }> {
  for (const { index, role } of universe(shape)) {
    if (role === 'new') continue;
    const made = generate(shape.seed, index);
    yield { index, held: role === 'changed' ? made.previous : made.listing };
  }
}

// The remote snapshot as a sync builds it minus the network: JSON pages of 100 read-shape items, parsed with the client's schema
// and normalised by the snapshot's own PageCollector (so the strings are the flat ones JSON.parse makes).
export function generateRemote(shape: FeedShape): RemoteRows {
  let total = 0;
  for (const { role } of universe(shape)) if (role !== 'new') total++;
  const collector = new PageCollector(total);
  let items: ListingRead[] = [];
  let page = 1;
  const flush = (): void => {
    const data = listListingsDataSchema.parse(JSON.parse(JSON.stringify({ List: items, VirtualCount: total })));
    collector.add({ page: page++, items: data.List, virtualCount: data.VirtualCount });
    items = [];
  };
  for (const { index, held } of remoteListings(shape)) {
    items.push(readItem(5_000_000 + index, held));
    if (items.length === 100) flush();
  }
  if (items.length > 0) flush();
  const drift: string[] = [];
  const remote = collector.finish(drift);
  if (drift.length > 0) throw new Error(`generated remote drifted: ${drift.join('; ')}`);
  return remote;
}

/** The chatbot's ledger (every remote listing managed), each entry through the Redis encoding, one at a time as HSCAN hands them. */
export function generateLedger(shape: FeedShape, onEntry: (key: string, entry: LedgerEntry) => void): void {
  for (const { index, held } of remoteListings(shape)) {
    const stored = { hash: listingHash(held), remoteId: String(5_000_000 + index), writtenAt: 1_700_000_000_000, runId: 'bench-previous' };
    const entry = decodeLedgerEntry(encodeLedgerEntry(stored));
    if (entry !== undefined) onEntry(String(10_000_000 + index), entry);
  }
}

/** The feed as the importer would hand it to the planner (key → listing), for timing the planner alone. */
export function generateFeedListings(shape: FeedShape): Map<string, ListingFields> {
  const feed = new Map<string, ListingFields>();
  for (const { index, role } of universe(shape))
    if (role !== 'gone') feed.set(String(10_000_000 + index), generate(shape.seed, index).listing);
  return feed;
}
