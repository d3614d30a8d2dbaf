/**
 * The planner's defining property (issue 3): in mode mirror with scope all, applying the plan to
 * the remote yields exactly the feed, and planning again yields nothing to do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import { listingHash } from '../../src/domain/hash.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import { AREA_UNITS, type ListingFields } from '../../src/domain/listing.js';
import type { Plan } from '../../src/domain/plan.js';
import { planSync } from '../../src/domain/planner.js';
import { listing, remote } from './planner-fixture.js';

/** The service as the test sees it: full fields per id (the planner only sees the read shape). */
type Service = Map<string, ListingFields>;

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

const scenarioArb = fc.record({
  feed: fc.subarray(KEYS).chain((keys) => fc.tuple(...keys.map(listingArb))),
  // Keys may repeat: the remote can hold duplicates, which scope all cleans up.
  remote: fc.array(fc.constantFrom(...KEYS).chain(listingArb), { maxLength: 12 }),
  ledger: fc.array(fc.constantFrom(...KEYS).chain(listingArb), { maxLength: 8 }),
});

function apply(service: Service, plan: Plan, ledger: Map<string, LedgerEntry>, nextId: () => string): void {
  for (const planned of plan.deletes) {
    for (const [id, fields] of service) {
      const hit = planned.keyType === 'NewOaks' ? id === planned.key : fields.MLSNumber === planned.key;
      if (hit) service.delete(id);
    }
  }
  for (const update of plan.updates) {
    expect(update.remoteId === undefined ? false : service.has(update.remoteId)).toBe(true);
    service.set(update.remoteId ?? '', update.listing);
    ledger.set(update.key, { hash: update.hash, writtenAt: 1, runId: 'run-1' });
  }
  for (const create of plan.creates) {
    service.set(nextId(), create.listing);
    ledger.set(create.key, { hash: create.hash, writtenAt: 1, runId: 'run-1' });
  }
}

function planAgainst(feed: Map<string, ListingFields>, service: Service, ledger: Map<string, LedgerEntry>): Plan {
  const snapshot = [...service].map(([id, fields]) => remote(id, fields));
  return planSync({ chatbot: 'bot', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'all', feed, remote: snapshot, ledger }).plan;
}

describe('planSync property', () => {
  it('applying the plan yields the feed, and a second plan has nothing to do', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const feed = new Map(scenario.feed.map((item) => [item.MLSNumber, item]));
        let counter = 0;
        const nextId = (): string => String(1000 + counter++);
        const service: Service = new Map(scenario.remote.map((item) => [nextId(), item]));
        const ledger = new Map(scenario.ledger.map((item) => [item.MLSNumber, { hash: listingHash(item), writtenAt: 0, runId: 'run-0' }]));

        apply(service, planAgainst(feed, service, ledger), ledger, nextId);

        const remoteKeys = [...service.values()].map((fields) => fields.MLSNumber).sort();
        expect(remoteKeys).toEqual([...feed.keys()].sort());
        for (const fields of service.values()) {
          const wanted = feed.get(fields.MLSNumber);
          if (wanted === undefined) throw new Error(`remote key ${fields.MLSNumber} not in feed`);
          expect(diffListing(wanted, remote('x', fields).fields, { volatileFields: DEFAULT_VOLATILE_FIELDS })).toEqual([]);
          // Hidden fields reach the service too: every listing the ledger knows was written as the feed has it.
          const entry = ledger.get(fields.MLSNumber);
          if (entry !== undefined) expect(entry.hash).toBe(listingHash(wanted));
        }
        const again = planAgainst(feed, service, ledger);
        expect({ creates: again.creates, updates: again.updates, deletes: again.deletes }).toEqual({ creates: [], updates: [], deletes: [] });
        expect(again.unchanged).toBe(feed.size);
      }),
      { numRuns: 300 },
    );
  });
});
