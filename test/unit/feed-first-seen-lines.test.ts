import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstSeenLines } from '../../src/feed/first-seen-lines.js';

describe('firstSeenLines', () => {
  it('answers like a Map of key → first line, across growth and uneven line gaps', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 1, max: 3 })), { maxLength: 400 }), (rows) => {
        const table = firstSeenLines();
        const reference = new Map<string, number>();
        let line = 1;
        for (const [key, gap] of rows) {
          line += gap;
          expect(table.claim(key, line)).toBe(reference.get(key));
          if (!reference.has(key)) reference.set(key, line);
        }
        expect(table.size).toBe(reference.size);
      }),
    );
  });

  it('keeps 200k distinct keys apart and finds each again with its line', () => {
    const table = firstSeenLines();
    for (let i = 0; i < 200_000; i++) expect(table.claim(String(10_000_000 + i), 2 + i + (i >> 10))).toBeUndefined();
    for (let i = 0; i < 200_000; i += 997) expect(table.claim(String(10_000_000 + i), 999_999)).toBe(2 + i + (i >> 10));
    expect(table.claim('https://x.test/a', 7)).toBeUndefined();
    expect(table.claim('https://x.test/a', 8)).toBe(7);
    expect(table.size).toBe(200_001);
  });
});
