/**
 * The planner under replication (mode upsert): a listing absent from an incremental pull is
 * kept; a key the feed removed (off-market status) or a key missing from a complete sweep is
 * deleted when managed, and only then.
 */
import { describe, expect, it } from 'vitest';
import { listingHash } from '../../src/domain/hash.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { createPlanner, type PlannerContext } from '../../src/domain/planner.js';
import { listing, remote } from '../helpers/planner-fixture.js';

const ledgerOf = (...items: ListingFields[]): Map<string, LedgerEntry> =>
  new Map(items.map((item) => [item.MLSNumber, { hash: listingHash(item), writtenAt: 0, runId: 'run-0' }]));

function context(overrides: Partial<PlannerContext> = {}): PlannerContext {
  const items = [listing('100'), listing('200'), listing('300')];
  return {
    chatbot: 'bot-1',
    keyType: 'MLSNumber',
    mode: 'upsert',
    deleteScope: 'managed',
    remote: [...items.map((item, i) => remote(String(i + 1), item)), remote('9', listing('900'))],
    // 900 was not written by listing-sync: never deleted under scope managed.
    ledger: ledgerOf(...items),
    ...overrides,
  };
}

const deletedKeys = (ctx: PlannerContext, build: (planner: ReturnType<typeof createPlanner>) => void): string[] => {
  const planner = createPlanner(ctx);
  build(planner);
  return planner.finish().plan.deletes.map((planned) => planned.key);
};

describe('planner under replication', () => {
  it('keeps listings absent from the pull and deletes removed keys that are managed', () => {
    expect(deletedKeys(context(), (p) => p.add('200', listing('200', { SalePrice: 5 })))).toEqual([]);
    expect(
      deletedKeys(context(), (p) => {
        p.remove('100');
        p.remove('900');
        p.remove('555');
      }),
    ).toEqual(['100']);
  });

  it('deletes managed keys missing from a complete sweep, not those the pull holds', () => {
    const ctx = context({ sweptKeys: new Set(['200']) });
    expect(deletedKeys(ctx, (p) => p.add('300', listing('300')))).toEqual(['100']);
    expect(deletedKeys(context({ deleteScope: 'all', sweptKeys: new Set(['100', '200', '300']) }), () => undefined)).toEqual(['900']);
  });
});
