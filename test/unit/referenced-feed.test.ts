/** The references a replicated feed's listings record: by the row's (chatbot's) key, only hosted objects, only listings. */
import { describe, expect, it } from 'vitest';
import type { FeedRow, OpenFeed } from '../../src/feed/feed-types.js';
import { objectsOf, referencedFeed } from '../../src/feed/media/referenced-feed.js';

const BASE = 'https://photos.example.test/p/';
const object = (n: number): string => `${String(n).repeat(64).slice(0, 64)}.jpg`;

function feedOf(rows: FeedRow[]): OpenFeed {
  async function* all(): AsyncGenerator<FeedRow> {
    yield* rows;
  }
  return {
    rows: all(),
    stats: () => ({ rows: rows.length, valid: rows.length, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} }),
    progress: () => ({ bytes: 0 }),
    readIn: 'main',
    shape: () => undefined,
  };
}

describe('referencedFeed', () => {
  it('keeps only object keys under the base URL, in order', () => {
    expect(objectsOf([`${BASE}${object(2)}`, 'https://mls.example.test/a.jpg', `${BASE}${object(1)}`, `${BASE}not-a-key`], BASE)).toEqual([
      object(2),
      object(1),
    ]);
  });

  it('records listings by their key, and nothing for excluded rows or rows without Images', async () => {
    const recorded = new Map<string, readonly string[]>();
    const rows: FeedRow[] = [
      { kind: 'listing', line: 1, key: 'MLS-1', listing: { MLSNumber: 'MLS-1', Images: [`${BASE}${object(1)}`] } as never },
      { kind: 'excluded', line: 2, key: 'MLS-2', reason: 'Withdrawn', remove: true },
      { kind: 'listing', line: 3, key: 'MLS-3', listing: { MLSNumber: 'MLS-3' } as never },
      { kind: 'listing', line: 4, key: 'MLS-4', listing: { MLSNumber: 'MLS-4', Images: [] } as never },
    ];
    const feed = referencedFeed(feedOf(rows), BASE, async (listings) => {
      for (const [key, objects] of listings) recorded.set(key, objects);
    });
    const seen: string[] = [];
    for await (const row of feed.rows) seen.push(row.kind === 'rejected' ? '' : row.key);
    expect(seen).toEqual(['MLS-1', 'MLS-2', 'MLS-3', 'MLS-4']);
    expect([...recorded]).toEqual([
      ['MLS-1', [object(1)]],
      ['MLS-4', []],
    ]);
  });
});
