/**
 * The planner's defining property (issue 3): in mode mirror with scope all, applying the plan to
 * the remote yields exactly the feed, and planning again yields nothing to do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import { hashParts, listingHash, recordedHash } from '../../src/domain/hash.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { ListingFields } from '../../src/domain/listing.js';
import type { Plan } from '../../src/domain/plan.js';
import { planSync } from '../../src/domain/planner.js';
import { remote, scenarioArb } from '../helpers/planner-fixture.js';

/** The service as the test sees it: full fields per id (the planner only sees the read shape). */
type Service = Map<string, ListingFields>;

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
    ledger.set(create.key, { hash: recordedHash(create.listing), writtenAt: 1, runId: 'run-1' });
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
          if (entry !== undefined) expect(hashParts(entry.hash).hash).toBe(listingHash(wanted));
        }
        const again = planAgainst(feed, service, ledger);
        expect({ creates: again.creates, updates: again.updates, deletes: again.deletes }).toEqual({
          creates: [],
          updates: [],
          deletes: [],
        });
        expect(again.unchanged).toBe(feed.size);
      }),
      { numRuns: 300 },
    );
  });
});
