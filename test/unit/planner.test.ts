import { describe, expect, it } from 'vitest';
import { hashParts, listingHash, recordedHash } from '../../src/domain/hash.js';
import type { LedgerEntry } from '../../src/domain/ledger-entry.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { HIDDEN_FIELDS_CHANGE } from '../../src/domain/field-changes.js';
import { planSync, RETRY_CHANGE, type PlanInput } from '../../src/domain/planner.js';
import type { RemoteListing } from '../../src/domain/snapshot/remote.js';
import { listing, remote } from '../helpers/planner-fixture.js';

function feedOf(...listings: ListingFields[]): Map<string, ListingFields> {
  return new Map(listings.map((item) => [item.MLSNumber, item]));
}

function ledgerOf(...entries: Array<[string, ListingFields]>): Map<string, LedgerEntry> {
  return new Map(entries.map(([key, fields]) => [key, { hash: listingHash(fields), writtenAt: 0, runId: 'run-0' }]));
}

function plan(overrides: Partial<PlanInput>): ReturnType<typeof planSync> {
  return planSync({
    chatbot: 'bot-1',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'all',
    feed: new Map(),
    remote: [],
    ledger: new Map(),
    ...overrides,
  });
}

describe('planSync', () => {
  it('plans create, update, delete and unchanged on a hand-checked case', () => {
    const result = plan({
      feed: feedOf(listing('300'), listing('100', { SalePrice: 999_000 }), listing('200')),
      remote: [remote('11', listing('100')), remote('12', listing('200')), remote('13', listing('400'))],
    });
    const { plan: p } = result;
    expect(p.creates).toEqual([{ key: '300', listing: listing('300') }]);
    expect(p.updates).toEqual([
      {
        key: '100',
        listing: listing('100', { SalePrice: 999_000 }),
        hash: recordedHash(listing('100', { SalePrice: 999_000 })),
        remoteId: '11',
        changes: [{ field: 'SalePrice', from: 1_250_000, to: 999_000 }],
      },
    ]);
    expect(p.deletes).toEqual([{ key: '400', keyType: 'MLSNumber', reason: 'gone', listingKey: '400' }]);
    expect(p.unchanged).toBe(1);
    expect(result.remoteDuplicates).toEqual([]);
    expect(result.remoteUnkeyed).toEqual([]);
  });

  it('names each field the read does not show that changed, against the field digests the ledger recorded', () => {
    const old = listing('100');
    const now = listing('100', { AreaUnit: 'Square Meters', Location: 'Downtown' });
    const ledger = new Map([['100', { hash: recordedHash(old), writtenAt: 0, runId: 'run-0' }]]);
    const result = plan({ feed: feedOf(now), remote: [remote('11', old)], ledger });
    expect(result.plan.unchanged).toBe(0);
    expect(result.plan.updates[0]?.changes).toEqual([
      { field: 'AreaUnit', from: undefined, to: 'Square Meters', notReadBack: true },
      { field: 'Location', from: undefined, to: 'Downtown', notReadBack: true },
    ]);
    expect(result.plan.updates[0]?.hash).toBe(recordedHash(now));
    expect(result.fieldChanges).toEqual([
      { field: 'AreaUnit', count: 1, samples: [{ key: '100', to: 'Square Meters', notReadBack: true }], notReadBack: true },
      { field: 'Location', count: 1, samples: [{ key: '100', to: 'Downtown', notReadBack: true }], notReadBack: true },
    ]);
    expect(result.wipes).toEqual([]);
  });

  it('updates on a ledger entry from before field digests once, naming no field, and records the digests', () => {
    const old = listing('100');
    const now = listing('100', { AreaUnit: 'Square Meters' });
    const result = plan({ feed: feedOf(now), remote: [remote('11', old)], ledger: ledgerOf(['100', old]) });
    const p = result.plan;
    expect(p.unchanged).toBe(0);
    expect(p.updates[0]?.changes).toEqual([{ field: HIDDEN_FIELDS_CHANGE, from: undefined, to: undefined, notReadBack: true }]);
    expect(result.fieldChanges).toEqual([
      {
        field: HIDDEN_FIELDS_CHANGE,
        count: 1,
        samples: [{ key: '100', from: 'not read back', to: 'changed (which field unknown)' }],
        notReadBack: true,
      },
    ]);
    expect(hashParts(p.updates[0]?.hash ?? '').digests).toBeDefined();
    const after = new Map([['100', { hash: p.updates[0]?.hash ?? '', writtenAt: 1, runId: 'run-1' }]]);
    expect(plan({ feed: feedOf(now), remote: [remote('11', old)], ledger: after }).plan.unchanged).toBe(1);
  });

  it('leaves a listing alone when the ledger hash matches or there is no ledger entry', () => {
    const item = listing('100');
    expect(plan({ feed: feedOf(item), remote: [remote('11', item)], ledger: ledgerOf(['100', item]) }).plan.unchanged).toBe(1);
    const hiddenOnly = listing('100', { Location: 'Downtown' });
    expect(plan({ feed: feedOf(hiddenOnly), remote: [remote('11', item)] }).plan.unchanged).toBe(1);
  });

  it('does not update for a volatile field alone, and sends its new value with a real change', () => {
    const stored = listing('100', { DaysOnMarket: 5 });
    const remoteCopy = [remote('11', stored)];
    const ledger = new Map<string, LedgerEntry>();
    expect(plan({ feed: feedOf(listing('100', { DaysOnMarket: 6 })), remote: remoteCopy, ledger }).plan.unchanged).toBe(1);
    const changed = listing('100', { DaysOnMarket: 6, City: 'Oakland' });
    const { plan: p } = plan({ feed: feedOf(changed), remote: remoteCopy, ledger });
    expect(p.updates[0]?.listing.DaysOnMarket).toBe(6);
    expect(p.updates[0]?.changes.map((c) => c.field)).toEqual(['DaysOnMarket', 'City']);
  });

  it('never deletes in upsert mode', () => {
    const { plan: p } = plan({ mode: 'upsert', remote: [remote('11', listing('400'))], ledger: ledgerOf(['400', listing('400')]) });
    expect(p.deletes).toEqual([]);
  });

  it('with scope managed deletes only keys in the ledger', () => {
    const { plan: p } = plan({
      deleteScope: 'managed',
      remote: [remote('11', listing('400')), remote('12', listing('500'))],
      ledger: ledgerOf(['500', listing('500')]),
    });
    expect(p.deletes.map((d) => d.key)).toEqual(['500']);
  });

  it('keeps the oldest remote copy of a key and deletes the others by NewOaks id', () => {
    const result = plan({
      feed: feedOf(listing('100', { City: 'Oakland' })),
      remote: [remote('9', listing('100')), remote('10', listing('100', { City: 'Oakland' })), remote('100', listing('100'))],
    });
    expect(result.remoteDuplicates).toEqual([{ key: '100', ids: ['9', '10', '100'] }]);
    expect(result.plan.updates.map((u) => u.remoteId)).toEqual(['9']);
    expect(result.plan.deletes).toEqual([
      { key: '10', keyType: 'NewOaks', reason: 'duplicate', listingKey: '100' },
      { key: '100', keyType: 'NewOaks', reason: 'duplicate', listingKey: '100' },
    ]);
  });

  it('with scope managed cleans duplicates of keys in the feed or ledger only, in every mode', () => {
    const remoteCopies: RemoteListing[] = [
      remote('1', listing('100')),
      remote('2', listing('100')),
      remote('3', listing('200')),
      remote('4', listing('200')),
      remote('5', listing('300')),
      remote('6', listing('300')),
    ];
    const result = plan({
      mode: 'upsert',
      deleteScope: 'managed',
      feed: feedOf(listing('100')),
      remote: remoteCopies,
      ledger: ledgerOf(['200', listing('200')]),
    });
    expect(result.plan.deletes.map((d) => [d.key, d.reason])).toEqual([
      ['2', 'duplicate'],
      ['4', 'duplicate'],
    ]);
    expect(result.remoteDuplicates.map((d) => d.key)).toEqual(['100', '200', '300']);
  });

  it('reports remote listings with an empty key and never deletes them', () => {
    const unkeyed = (id: string): RemoteListing => ({ id, fields: { ...remote(id, listing('x')).fields, MLSNumber: ' ' } });
    const result = plan({ remote: [unkeyed('20'), unkeyed('3')] });
    expect(result.remoteUnkeyed).toEqual(['3', '20']);
    expect(result.plan.deletes).toEqual([]);
  });

  it('matches by URL when asked to', () => {
    const moved = listing('100', { MLSNumber: 'NEW-1' });
    const { plan: p } = plan({ keyType: 'URL', feed: new Map([[moved.Url, moved]]), remote: [remote('11', listing('100'))] });
    expect(p.creates).toEqual([]);
    expect(p.updates[0]?.changes.map((c) => c.field)).toEqual(['MLSNumber']);
  });

  it('plans keys from retryKeys again even when they look unchanged', () => {
    const item = listing('100');
    const { plan: p } = plan({ feed: feedOf(item), remote: [remote('11', item)], retryKeys: new Set(['100']) });
    expect(p.updates.map((u) => [u.key, u.changes[0]?.field])).toEqual([['100', RETRY_CHANGE]]);
  });

  it('returns the same order whatever the input order', () => {
    const keys = ['b', 'a', 'c', '10', '9'];
    const input = (order: string[]): Partial<PlanInput> => ({
      feed: feedOf(...order.map((k) => listing(`new-${k}`)), ...order.map((k) => listing(`chg-${k}`))),
      remote: [
        ...order.map((k, i) => remote(String(100 + i), listing(`chg-${k}`, { City: 'Old' }))),
        ...order.map((k, i) => remote(String(200 + i), listing(`gone-${k}`))),
        ...order.map((k) => remote(`dup-${k}`, listing('gone-a'))),
      ],
    });
    const forward = plan(input(keys));
    const backward = plan(input([...keys].reverse()));
    const summary = (r: ReturnType<typeof plan>): unknown => [
      r.plan.creates.map((c) => c.key),
      r.plan.updates.map((u) => u.key),
      r.plan.deletes,
    ];
    expect(summary(backward)).toEqual(summary(forward));
    expect(forward.plan.creates.map((c) => c.key)).toEqual(['new-10', 'new-9', 'new-a', 'new-b', 'new-c']);
    const goneA = forward.plan.deletes.filter((d) => d.listingKey === 'gone-a').map((d) => d.key);
    expect(goneA).toEqual(['gone-a', 'dup-10', 'dup-9', 'dup-a', 'dup-b', 'dup-c']);
    expect(forward.plan.deletes.map((d) => d.listingKey)).toEqual([...forward.plan.deletes.map((d) => d.listingKey)].sort());
  });
});
