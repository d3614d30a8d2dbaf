/**
 * The incremental planner: listings arrive one at a time (in file order, while the feed is read);
 * the plan must not depend on that order, must keep the caller's remote untouched, and must
 * refuse misuse loudly instead of planning something wrong.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listingHash } from '../../src/domain/hash.js';
import { createPlanner, type PlannerContext, type PlanResult } from '../../src/domain/planner.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { ListingFields } from '../../src/domain/listing.js';
import type { RemoteListing } from '../../src/domain/snapshot/remote.js';
import { listing, remote } from '../helpers/planner-fixture.js';

function context(overrides: Partial<PlannerContext>): PlannerContext {
  return { chatbot: 'bot-1', keyType: 'MLSNumber', mode: 'mirror', deleteScope: 'managed', remote: [], ledger: new Map(), ...overrides };
}

function planInOrder(ctx: PlannerContext, feed: readonly ListingFields[]): PlanResult {
  const planner = createPlanner(ctx);
  for (const item of feed) planner.add(item.MLSNumber, item);
  return planner.finish();
}

function ledgerOf(...items: ListingFields[]): Map<string, LedgerEntry> {
  return new Map(items.map((item) => [item.MLSNumber, { hash: listingHash(item), writtenAt: 0, runId: 'run-0' }]));
}

describe('createPlanner', () => {
  it('plans creates, updates, gone deletes and unchanged from listings added one by one', () => {
    const ctx = context({
      remote: [remote('11', listing('100')), remote('12', listing('200')), remote('13', listing('400'))],
      ledger: ledgerOf(listing('100'), listing('200'), listing('400')),
    });
    const result = planInOrder(ctx, [listing('300'), listing('200', { SalePrice: 1 }), listing('100')]);
    expect(result.plan.creates.map((c) => c.key)).toEqual(['300']);
    expect(result.plan.updates.map((u) => [u.key, u.remoteId, u.changes.map((c) => c.field)])).toEqual([['200', '12', ['SalePrice']]]);
    expect(result.plan.deletes).toEqual([{ key: '400', keyType: 'MLSNumber', reason: 'gone', listingKey: '400' }]);
    expect(result.plan.unchanged).toBe(1);
  });

  it("keeps the lowest id even when it comes last, without reordering the caller's remote", () => {
    const remoteCopies: RemoteListing[] = [
      remote('30', listing('100')),
      remote('4', listing('100', { City: 'Oakland' })),
      remote('100', listing('100')),
    ];
    const before = structuredClone(remoteCopies);
    const result = planInOrder(context({ remote: remoteCopies }), [listing('100')]);
    expect(remoteCopies).toEqual(before);
    expect(result.remoteDuplicates).toEqual([{ key: '100', ids: ['4', '30', '100'] }]);
    // Diffed against id 4 (City Oakland), the copy kept.
    expect(result.plan.updates.map((u) => [u.remoteId, u.changes.map((c) => c.field)])).toEqual([['4', ['City']]]);
    expect(result.plan.deletes.map((d) => d.key)).toEqual(['30', '100']);
  });

  it('cleans duplicates of a key it never saw in the feed only when the ledger manages that key', () => {
    const copies = [remote('1', listing('100')), remote('2', listing('100')), remote('3', listing('200')), remote('4', listing('200'))];
    const result = planInOrder(context({ mode: 'upsert', remote: copies, ledger: ledgerOf(listing('200')) }), []);
    expect(result.plan.deletes.map((d) => [d.key, d.reason, d.listingKey])).toEqual([['4', 'duplicate', '200']]);
    expect(result.remoteDuplicates.map((d) => d.key)).toEqual(['100', '200']);
  });

  it('holds a listing whose feed row was rejected: no update, no delete, counted as held', () => {
    const ctx = context({
      remote: [remote('11', listing('100')), remote('12', listing('200'))],
      ledger: ledgerOf(listing('100'), listing('200')),
    });
    const planner = createPlanner(ctx);
    planner.add('100', listing('100'));
    planner.hold('200');
    planner.hold('200');
    planner.hold('999');
    planner.hold('100');
    const result = planner.finish();
    expect(result.plan.deletes).toEqual([]);
    expect(result.plan.updates).toEqual([]);
    expect(result.plan.unchanged).toBe(1);
    expect(result.plan.held).toBe(1);
  });

  it('refuses a key added twice, add after finish, and a second finish', () => {
    const known = createPlanner(context({ remote: [remote('1', listing('100'))] }));
    known.add('100', listing('100'));
    expect(() => known.add('100', listing('100'))).toThrow(/added twice/);
    // A new key repeated is refused when the plan is finished (its creates in key order), before anything is written.
    const repeated = createPlanner(context({}));
    repeated.add('900', listing('900'));
    repeated.add('900', listing('900'));
    expect(() => repeated.finish()).toThrow(/key 900 added twice/);
    const fresh = createPlanner(context({}));
    fresh.add('900', listing('900'));
    fresh.finish();
    expect(() => fresh.add('901', listing('901'))).toThrow(/after finish/);
    expect(() => fresh.finish()).toThrow(/called twice/);
  });

  it('gives the same plan whatever order the feed arrives in (property)', () => {
    const keys = ['1', '2', '3', '4', '5', '6'];
    const variant = (key: string, price: number): ListingFields => listing(key, { SalePrice: price });
    const scenario = fc.record({
      feed: fc
        .subarray(keys)
        .chain((chosen) => fc.tuple(...chosen.map((key) => fc.constantFrom(100, 200).map((price) => variant(key, price))))),
      remote: fc.array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(100, 200), fc.nat(50)), { maxLength: 10 }),
      ledgerKeys: fc.subarray(keys),
      scope: fc.constantFrom('managed' as const, 'all' as const),
      order: fc.func(fc.integer()),
    });
    fc.assert(
      fc.property(scenario, ({ feed, remote: copies, ledgerKeys, scope, order }) => {
        // Distinct ids: a service never issues one id twice.
        const remoteListings = copies.map(([key, price, id], i) => remote(`${id}${i}`, variant(key, price)));
        const ctx = context({
          deleteScope: scope,
          remote: remoteListings,
          ledger: ledgerOf(...ledgerKeys.map((key) => variant(key, 100))),
        });
        const shuffled = [...feed].sort((a, b) => order(a.MLSNumber) - order(b.MLSNumber));
        expect(planInOrder(ctx, shuffled)).toEqual(planInOrder(ctx, feed));
      }),
    );
  });
});
