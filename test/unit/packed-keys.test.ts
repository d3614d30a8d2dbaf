/**
 * A spooled plan's packed keys (src/sync/packed-keys.ts): read back as added, and sorted exactly
 * as compareText sorts the strings, whether every key is Latin-1 or one that is not comes later.
 */
import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/domain/id-order.js';
import { packedKeys } from '../../src/sync/packed-keys.js';

function sortedByPacking(keys: readonly string[]): string[] {
  const packed = packedKeys();
  for (const key of keys) packed.add(key);
  expect(keys.map((_, i) => packed.key(i))).toEqual(keys);
  return [...packed.sortedOrder()].map((ordinal) => packed.key(ordinal));
}

describe('packed keys', () => {
  it('sorts Latin-1 keys as compareText does, prefixes and the empty key included', () => {
    const keys = ['ML10', 'ML9', 'ML1', '', 'ML100', 'mL1', 'Zürich-7', 'é', 'ML1 ', 'ÿ'];
    expect(sortedByPacking(keys)).toEqual([...keys].sort(compareText));
  });

  it('keeps the order once a key beyond Latin-1 widens the packing, surrogate pairs by code unit', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `K${(i * 7919) % 3001}`);
    const keys = [...many.slice(0, 1500), 'Ключ-1', '🏠-2', '\uffff', 'K15', 'ü', ...many.slice(1500)];
    expect(sortedByPacking(keys)).toEqual([...keys].sort(compareText));
  });

  it('tells equal keys apart from different ones of the same length', () => {
    const packed = packedKeys();
    for (const key of ['AB1', 'AB2', 'AB1']) packed.add(key);
    expect(packed.same(0, 2)).toBe(true);
    expect(packed.same(0, 1)).toBe(false);
  });

  it('reads a long key back whole', () => {
    const packed = packedKeys();
    const key = 'x'.repeat(10_000) + 'Ω';
    packed.add(key);
    expect(packed.key(0)).toBe(key);
  });
});
