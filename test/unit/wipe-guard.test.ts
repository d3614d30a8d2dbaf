/**
 * The field-wipe guard: which changes count as wipes (a value emptied, or a default filled in over
 * a held value; not an explicit 0), the base they are counted against (matched listings that hold
 * the field), the threshold with its handful, the allow-list, and the per-field change counts the
 * dry run shows.
 */
import { describe, expect, it } from 'vitest';
import { filledBit, showSample, type FieldWipe } from '../../src/domain/field-changes.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { createPlanner, type PlanResult } from '../../src/domain/planner.js';
import { judgeWipes, parseAllowWipe, WIPE_HANDFUL } from '../../src/domain/wipe-guard.js';
import { listing, remote } from '../helpers/planner-fixture.js';

const key = (i: number): string => String(1000 + i);

/** Plans `feed` (key → listing and filled mask) against remote copies of `held`, all managed. */
function planOf(held: ListingFields[], feed: Array<{ listing: ListingFields; filled?: number }>, rejected: string[] = []): PlanResult {
  const planner = createPlanner({
    chatbot: 'bot',
    keyType: 'MLSNumber',
    mode: 'mirror',
    deleteScope: 'all',
    remote: held.map((fields, i) => remote(String(i + 1), fields)),
    ledger: new Map(),
  });
  for (const row of feed) planner.add(row.listing.MLSNumber, row.listing, row.filled);
  for (const rejectedKey of rejected) planner.hold(rejectedKey);
  return planner.finish();
}

function wipeOf(result: PlanResult, field: string): FieldWipe | undefined {
  return result.wipes.find((wipe) => wipe.field === field);
}

describe('counting wipes in the plan', () => {
  it('counts a default filled in over a real value as a wipe, and not a feed that explicitly says 0', () => {
    const held = [listing(key(1), { Bedrooms: 3 }), listing(key(2), { Bedrooms: 2 }), listing(key(3), { Bedrooms: 0 })];
    const result = planOf(held, [
      { listing: listing(key(1), { Bedrooms: 0 }), filled: filledBit('Bedrooms') },
      { listing: listing(key(2), { Bedrooms: 0 }) },
      // A default over a held 0 changes nothing: no update, no wipe.
      { listing: listing(key(3), { Bedrooms: 0 }), filled: filledBit('Bedrooms') },
    ]);
    expect(result.plan.updates.map((update) => update.key)).toEqual([key(1), key(2)]);
    expect(result.fieldChanges).toEqual([
      {
        field: 'Bedrooms',
        count: 2,
        samples: [
          { key: key(1), from: 3, to: 0 },
          { key: key(2), from: 2, to: 0 },
        ],
      },
    ]);
    expect(result.wipes).toEqual([{ field: 'Bedrooms', count: 1, holders: 3, samples: [{ key: key(1), from: 3, to: 0, filled: true }] }]);
  });

  it('counts an emptied value held today, in every kind of field, and not a field the chatbot does not hold', () => {
    const held = [listing(key(1), { Description: 'Nice', Images: ['a.jpg'] }), listing(key(2), { SalePrice: undefined })];
    const { City: _c, Images: _i, Description: _d, ...bare1 } = listing(key(1));
    const { SalePrice: _s, ...bare2 } = listing(key(2), { SalePrice: undefined });
    const result = planOf(held, [{ listing: { ...bare1, City: ' ' } }, { listing: bare2 }]);
    expect(result.wipes.map((wipe) => [wipe.field, wipe.count])).toEqual([
      ['Images', 1],
      ['Description', 1],
      ['City', 1],
    ]);
    expect(wipeOf(result, 'SalePrice')).toBeUndefined();
  });

  it('counts holders among the listings the feed matched (updated or unchanged), not those rejected or gone from the feed', () => {
    const held = Array.from({ length: 10 }, (_, i) => listing(key(i), { SalePrice: 100_000 + i }));
    const noPrice = (i: number): ListingFields => listing(key(i), { SalePrice: undefined });
    // 0..2 lose their price, 3..5 are unchanged, 6 is rejected (held), 7..9 are gone from the feed.
    const feed = [0, 1, 2].map((i) => ({ listing: noPrice(i) })).concat([3, 4, 5].map((i) => ({ listing: held[i] as ListingFields })));
    const result = planOf(held, feed, [key(6)]);
    expect(wipeOf(result, 'SalePrice')).toMatchObject({ count: 3, holders: 6 });
    expect(result.plan.unchanged).toBe(3);
  });

  it('keeps as samples the three first keys, whatever order the feed came in, and counts every change', () => {
    const held = Array.from({ length: 8 }, (_, i) => listing(key(i), { SalePrice: 500 }));
    const feed = [7, 2, 5, 0, 6, 1, 3, 4].map((i) => ({ listing: listing(key(i), { SalePrice: 600 + i }) }));
    const [prices] = planOf(held, feed).fieldChanges;
    expect(prices?.count).toBe(8);
    expect(prices?.samples.map((sample) => sample.key)).toEqual([key(0), key(1), key(2)]);
    expect(prices?.samples[1]).toEqual({ key: key(1), from: 500, to: 601 });
  });
});

function wipe(field: string, count: number, holders: number): FieldWipe {
  const samples = Array.from({ length: Math.min(count, 3) }, (_, i) => ({ key: key(i), from: 100 + i, to: undefined }));
  return { field, count, holders, samples };
}

describe('the wipe guard', () => {
  it('lets 10% of the holders through, and fewer than a handful whatever the share', () => {
    expect(judgeWipes([wipe('SalePrice', 10, 100)]).judged[0]?.verdict).toBe('within');
    expect(judgeWipes([wipe('SalePrice', 11, 100)]).judged[0]?.verdict).toBe('refused');
    expect(judgeWipes([wipe('HOAMonth', WIPE_HANDFUL - 1, WIPE_HANDFUL - 1)]).judged[0]?.verdict).toBe('within');
    expect(judgeWipes([wipe('HOAMonth', WIPE_HANDFUL, WIPE_HANDFUL)]).judged[0]?.verdict).toBe('refused');
  });

  it('takes --max-wipes as a percentage or a count (a count needs no handful)', () => {
    const limits = (text: { kind: 'count' | 'percent'; value: number }) => ({ maxWipes: text, allowWipe: [] });
    expect(judgeWipes([wipe('City', 40, 100)], limits({ kind: 'percent', value: 50 })).judged[0]?.verdict).toBe('within');
    expect(judgeWipes([wipe('City', 3, 100)], limits({ kind: 'count', value: 2 })).reasons[0]).toContain('more than --max-wipes 2,');
  });

  it('shows a filled default as such in a sample', () => {
    expect(showSample({ key: 'K1', from: 3, to: 0, filled: true })).toBe('K1 3 → 0 (default)');
    expect(showSample({ key: 'K2', from: 'x'.repeat(60), to: '' })).toBe(`K2 ${'x'.repeat(39)}… → (empty)`);
  });
});

describe('--allow-wipe', () => {
  it('takes repeated flags and comma lists in any case, each field once', () => {
    expect(parseAllowWipe(['SalePrice', 'bedrooms, HOAMonth', 'saleprice'])).toEqual(['SalePrice', 'Bedrooms', 'HOAMonth']);
  });

  it('refuses an unknown field, listing the fields there are', () => {
    expect(() => parseAllowWipe(['Price,SalePrice', 'Beds'])).toThrow(
      /^--allow-wipe names no listing field: Price, Beds; the fields are SaleType, Status, .*SalePrice/,
    );
  });
});
