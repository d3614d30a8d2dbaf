/**
 * The bench:sync scenario: what the chatbot holds before the sync, the feed file, and the exact
 * service writes the sync must make (the baseline replays those same writes without a queue).
 *
 * Listings are numbered as in src/sim/sample-listings.ts. `changed` listings change, a share
 * `updateShare` of them as updates (revised price and description) and the rest as creates;
 * `unchanged` listings are in both; `deleted` remote listings are absent from the feed (mirror,
 * delete scope all → delete batches). Two mixes (share of updates):
 * - migration (default): every change is a create — a brokerage's inventory moving in;
 * - nightly: 80% updates, 20% creates. Why not the default: the simulator finds a listing to
 *   update by scanning every listing of the chatbot (src/sim/state.ts `update`), so with 10,000
 *   remote listings each update costs the in-process simulator ~2 ms of CPU and the simulator,
 *   not the client, sets the pace (plain undici reached 0.26 of ideal that way).
 * The deletes are kept to one small batch for the same reason: the simulator scans every listing
 * per deleted key, so a batch of 100 keys against ~11,000 listings blocks the (shared) event loop
 * for ~0.3 s, in the baseline and the queue alike.
 */
import { writeFile } from 'node:fs/promises';
import type { ListingUpdate, ListingWrite } from '../src/domain/listing.js';
import { sampleListing } from '../src/sim/sample-listings.js';

export const BENCH_CHATBOT = 'bench-sync';

export const SCENARIO_MIXES = { migration: 0, nightly: 0.8 } as const;
export type ScenarioMix = keyof typeof SCENARIO_MIXES;

export interface ScenarioShape {
  /** Listings the feed changes (updates + creates). */
  changed: number;
  /** Which share of the changes are updates (the rest are creates). */
  mix: ScenarioMix;
  unchanged: number;
  deleted: number;
  deleteBatchSize: number;
  /** RealEstateList page size of the snapshot (the simulator's maximum). */
  pageSize: number;
}

export interface Scenario extends ScenarioShape {
  updates: number;
  creates: number;
  /** Listings the chatbot holds before the sync. */
  remote: ListingWrite[];
  /** The feed's listings (write shape, SerialNumber included). */
  feed: ListingWrite[];
  /** The write requests a perfect client makes: one per update and create, one per delete batch. */
  writes: BaselineWrite[];
  /** list pages + writes + delete batches: the fewest service calls that do this sync. */
  minimalCalls: number;
  listPages: number;
  deleteBatches: number;
}

export type BaselineWrite =
  | { endpoint: 'updateListing'; body: ListingUpdate }
  | { endpoint: 'createListing'; body: ListingWrite }
  | { endpoint: 'deleteListings'; body: { SerialNumber: string; Keys: string[]; KeyType: 'MLSNumber' } };

function listing(i: number, revised: boolean): ListingWrite {
  const base = sampleListing(i, { SerialNumber: BENCH_CHATBOT });
  if (!revised) return base;
  // Why two fields: a description edit alone would look like a cosmetic change to a reader; a
  // price change is what a nightly feed mostly carries.
  const price = base.SaleType === 'for_rent' ? { RentPrice: (base.RentPrice ?? 0) + 50 } : { SalePrice: (base.SalePrice ?? 0) + 5000 };
  return { ...base, Description: `${base.Description ?? ''} (revised)`, ...price };
}

export function buildScenario(shape: ScenarioShape): Scenario {
  const updates = Math.round(shape.changed * SCENARIO_MIXES[shape.mix]);
  const creates = shape.changed - updates;
  const remoteCount = updates + shape.unchanged + shape.deleted;
  const remote = Array.from({ length: remoteCount }, (_, i) => listing(i, false));
  const feed: ListingWrite[] = [];
  const writes: BaselineWrite[] = [];
  for (let i = 0; i < updates; i += 1) {
    const revised = listing(i, true);
    feed.push(revised);
    writes.push({ endpoint: 'updateListing', body: { ...revised, Key: revised.MLSNumber, KeyType: 'MLSNumber' } });
  }
  for (let i = updates; i < updates + shape.unchanged; i += 1) feed.push(listing(i, false));
  for (let i = remoteCount; i < remoteCount + creates; i += 1) {
    const fresh = listing(i, false);
    feed.push(fresh);
    writes.push({ endpoint: 'createListing', body: { ...fresh } });
  }
  const gone = remote.slice(updates + shape.unchanged).map((l) => l.MLSNumber);
  for (let i = 0; i < gone.length; i += shape.deleteBatchSize) {
    writes.push({
      endpoint: 'deleteListings',
      body: { SerialNumber: BENCH_CHATBOT, Keys: gone.slice(i, i + shape.deleteBatchSize), KeyType: 'MLSNumber' },
    });
  }
  const listPages = Math.max(1, Math.ceil(remoteCount / shape.pageSize));
  const deleteBatches = Math.ceil(gone.length / shape.deleteBatchSize);
  return {
    ...shape,
    updates,
    creates,
    remote,
    feed,
    writes,
    listPages,
    deleteBatches,
    minimalCalls: listPages + updates + creates + deleteBatches,
  };
}

/** Writes the feed as a native-profile JSON array (write-shape field names, no SerialNumber). */
export async function writeFeedFile(path: string, feed: readonly ListingWrite[]): Promise<void> {
  const records = feed.map(({ SerialNumber: _serial, ...fields }) => JSON.stringify(fields));
  await writeFile(path, `[\n${records.join(',\n')}\n]\n`);
}
