/**
 * A sync's ledger held by remote position (LedgerByPosition) must answer exactly as the ledger
 * map does, and the planner must make the same plan with either.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldDigests, listingHash, recordedHash } from '../../src/domain/hash.js';
import { LedgerByPosition } from '../../src/domain/snapshot/ledger-by-position.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { DeleteScope, SyncMode } from '../../src/domain/plan.js';
import { planSync } from '../../src/domain/planner.js';
import { remoteRows } from '../../src/domain/snapshot/remote.js';
import { indexRemoteKeys } from '../../src/domain/snapshot/remote-key-index.js';
import { listing, remote, scenarioArb } from '../helpers/planner-fixture.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = '0123456789abcdef'.repeat(4);

describe('LedgerByPosition', () => {
  const rows = remoteRows([
    remote('10', listing('K1')),
    remote('11', listing('K2')),
    remote('9', listing('K2')),
    remote('12', listing('', { Url: '' })),
  ]);
  const index = indexRemoteKeys(rows, 'MLSNumber');

  it('keeps the field digests of an entry that has them, and answers none for one written before them', () => {
    const ledger = new LedgerByPosition(index, rows.length);
    const item = listing('K1', { AreaUnit: 'Square Meters' });
    ledger.add('K1', recordedHash(item));
    ledger.add('K2', HASH_B);
    expect([ledger.hashOf('K1', 0), ledger.digestsOf('K1', 0)]).toEqual([listingHash(item), fieldDigests(item)]);
    expect([ledger.hashOf('K2', 2), ledger.digestsOf('K2', 2)]).toEqual([HASH_B, undefined]);
    ledger.add('K1', HASH_A);
    expect(ledger.digestsOf('K1', 0)).toBeUndefined();
  });

  it('holds each entry at the position of the copy the planner keeps, and counts keys the chatbot no longer holds', () => {
    const ledger = new LedgerByPosition(index, rows.length);
    ledger.add('K1', HASH_A);
    ledger.add('K2', HASH_B);
    ledger.add('GONE', HASH_A);
    // The lowest id (9, at position 2) is the copy of K2 that is kept.
    expect(index.kept.get('K2')).toBe(2);
    expect([ledger.hashOf('K1', 0), ledger.hashOf('K2', 2), ledger.hashOf('K2', 1)]).toEqual([HASH_A, HASH_B, undefined]);
    expect([ledger.has('K1', 0), ledger.has('K2', 2), ledger.has('', 3)]).toEqual([true, true, false]);
    expect(ledger.size).toBe(3);
  });

  it('keeps hashes that are not 64 hex digits as they are, and the last of a key read twice', () => {
    const ledger = new LedgerByPosition(index, rows.length);
    ledger.add('K1', 'legacy-hash');
    ledger.add('K2', HASH_A);
    ledger.add('K2', HASH_B);
    ledger.add('GONE', HASH_A);
    ledger.add('GONE', HASH_A);
    expect([ledger.hashOf('K1', 0), ledger.hashOf('K2', 2)]).toEqual(['legacy-hash', HASH_B]);
    ledger.add('K1', HASH_A);
    expect(ledger.hashOf('K1', 0)).toBe(HASH_A);
    expect(ledger.size).toBe(3);
  });
});

describe('the planner with a ledger by position', () => {
  it('makes the plan it makes with the ledger map, in every mode and scope', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.constantFrom<SyncMode>('mirror', 'upsert'),
        fc.constantFrom<DeleteScope>('managed', 'all'),
        (scenario, mode, deleteScope) => {
          const feed = new Map(scenario.feed.map((item) => [item.MLSNumber, item]));
          const snapshot = remoteRows(scenario.remote.map((item, i) => remote(String(100 + i), item)));
          const map = new Map<string, LedgerEntry>(
            scenario.ledger.map((item) => [item.MLSNumber, { hash: listingHash(item), writtenAt: 0, runId: 'run-0' }]),
          );
          const index = indexRemoteKeys(snapshot, 'MLSNumber');
          const byPosition = new LedgerByPosition(index, snapshot.length);
          for (const [key, entry] of map) byPosition.add(key, entry.hash);
          const context = { chatbot: 'bot', keyType: 'MLSNumber', mode, deleteScope, feed, remote: snapshot } as const;
          expect(byPosition.size).toBe(map.size);
          expect(planSync({ ...context, index, ledger: byPosition })).toEqual(planSync({ ...context, ledger: map }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
