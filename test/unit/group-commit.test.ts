import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/store/group-commit.js';

describe('groupCommit', () => {
  it('sends a lone item at once and items arriving meanwhile together, each caller getting its own reply', async () => {
    const calls: number[][] = [];
    const send = async (items: readonly number[]): Promise<number[]> => {
      calls.push([...items]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return items.map((n) => n * 10);
    };
    const batches = groupCommit<number, number>({ windowMs: 0 });
    const first = batches.submit('g', 1, send);
    const rest = [2, 3, 4].map((n) => batches.submit('g', n, send));
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });

  it('never mixes groups in one call', async () => {
    const calls: string[][] = [];
    const batches = groupCommit<string, string>({ windowMs: 1 });
    const send = async (items: readonly string[]): Promise<string[]> => {
      calls.push([...items]);
      return items.map((s) => s.toUpperCase());
    };
    const replies = await Promise.all([batches.submit('a', 'a1', send), batches.submit('b', 'b1', send), batches.submit('a', 'a2', send)]);
    expect(replies).toEqual(['A1', 'B1', 'A2']);
    expect(calls).toEqual([['a1', 'a2'], ['b1']]);
  });

  it('a failed batch is tried again item by item: one bad item fails alone', async () => {
    const batches = groupCommit<number, number>({ windowMs: 1 });
    const send = async (items: readonly number[]): Promise<number[]> => {
      if (items.includes(13)) throw new Error('bad item');
      return items.map((n) => n + 1);
    };
    const results = await Promise.allSettled([12, 13, 14].map((n) => batches.submit('g', n, send)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual([13, 'rejected', 15]);
  });

  it('caps a batch at maxBatch items', async () => {
    const sizes: number[] = [];
    const batches = groupCommit<number, number>({ windowMs: 1, maxBatch: 3 });
    const send = async (items: readonly number[]): Promise<number[]> => {
      sizes.push(items.length);
      return [...items];
    };
    await Promise.all(Array.from({ length: 7 }, (_, i) => batches.submit('g', i, send)));
    expect(sizes).toEqual([3, 3, 1]);
  });
});
