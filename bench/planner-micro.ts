/**
 * Micro-benchmark of the pure planner: N feed listings against a remote of the same size with 1%
 * changed, 0.5% new and 0.5% gone, ledger full. Run: npx tsx bench/planner-micro.ts [N]
 */
import { listingHash } from '../src/domain/hash.js';
import type { LedgerEntry } from '../src/domain/ledger-entry.js';
import type { ListingFields } from '../src/domain/listing.js';
import { planSync } from '../src/domain/planner.js';
import type { RemoteListing } from '../src/domain/snapshot/remote.js';

function makeListing(i: number): ListingFields {
  return {
    SaleType: 'for_sale',
    Status: 'Active',
    CurrencySymbol: '$',
    PropertyType: 'Condo/Co-op',
    Bedrooms: (i % 5) + 1,
    Bathrooms: ((i % 4) + 2) / 2,
    Url: `https://www.redfin.com/CA/San-Jose/${i}-Main-St-95112/home/${i}`,
    MLSNumber: String(10_000_000 + i),
    YearBuilt: 1950 + (i % 70),
    DaysOnMarket: i % 90,
    LotArea: 0,
    BuildingArea: 800 + (i % 2000),
    AreaUnit: 'Square Feet',
    ParkingSpots: i % 3,
    Images: [`https://img.example/${i}/1.jpg`, `https://img.example/${i}/2.jpg`],
    Address: `${i} Main St`,
    City: 'San Jose',
    State: 'CA',
    ZIP: '95112',
    Latitude: 37 + (i % 1000) / 1e4,
    Longitude: -121 - (i % 1000) / 1e4,
    SalePrice: 500_000 + i * 10,
    UnitAreaPrice: 600 + (i % 100),
    HOAMonth: 300 + (i % 50),
    Description: `Listing number ${i} with a view.`,
  };
}

/** The remote copy as the read shape shows it: no AreaUnit, no Location (hidden fields). */
function asRemote(listing: ListingFields, id: number): RemoteListing {
  const { AreaUnit: _unit, Location: _location, ...shown } = listing;
  return { id: String(id), fields: shown };
}

const n = Number(process.argv[2] ?? 100_000);
const feed = new Map<string, ListingFields>();
const remote: RemoteListing[] = [];
const ledger = new Map<string, LedgerEntry>();
for (let i = 0; i < n; i++) {
  const listing = makeListing(i);
  const isNew = i % 200 === 0;
  const isGone = i % 200 === 1;
  const isChanged = i % 100 === 2;
  if (!isGone) feed.set(listing.MLSNumber, isChanged ? { ...listing, SalePrice: (listing.SalePrice ?? 0) + 1000 } : listing);
  if (!isNew) {
    remote.push(asRemote(listing, i + 1));
    ledger.set(listing.MLSNumber, { hash: listingHash(listing), remoteId: String(i + 1), writtenAt: 0, runId: 'run-0' });
  }
}

for (let round = 0; round < 3; round++) {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const { plan } = planSync({ chatbot: 'bot', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed', feed, remote, ledger });
  const ms = performance.now() - start;
  // CPU time too: on a shared machine wall time includes waiting for a core.
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `n=${n} round ${round}: ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms cpu  create=${plan.creates.length} update=${plan.updates.length} delete=${plan.deletes.length} unchanged=${plan.unchanged}`,
  );
}
