/**
 * The composition root's release stack (src/cli/wiring/release-stack.ts): newest first, each entry once
 * however it is asked (its own handle, releaseAll, both at once), failures collected without
 * stopping the others, and what is still open named.
 */
import { describe, expect, it } from 'vitest';
import { createReleaseStack } from '../../src/cli/wiring/release-stack.js';

describe('release stack', () => {
  it('releases newest first, one after the other', async () => {
    const stack = createReleaseStack();
    const order: string[] = [];
    for (const label of ['redis', 'client', 'workers']) {
      stack.push(label, async () => {
        order.push(`${label} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`${label} end`);
      });
    }
    expect(await stack.releaseAll()).toEqual([]);
    expect(order).toEqual(['workers start', 'workers end', 'client start', 'client end', 'redis start', 'redis end']);
  });

  it('releases an entry once, whether through its handle (twice, or while releaseAll runs) or releaseAll', async () => {
    const stack = createReleaseStack();
    let closed = 0;
    const close = stack.push('workers', async () => {
      closed += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const first = close();
    expect(close()).toBe(first);
    await Promise.all([first, stack.releaseAll()]);
    await close();
    expect(await stack.releaseAll()).toEqual([]);
    expect(closed).toBe(1);
  });

  it('goes on past a failing release, returns its failure once, and reports none of an entry whose own caller saw it fail', async () => {
    const stack = createReleaseStack();
    const released: string[] = [];
    stack.push('redis', () => void released.push('redis'));
    stack.push('client', () => {
      throw new Error('flush failed');
    });
    const closeEarly = stack.push('workers', () => Promise.reject(new Error('seen by the action')));
    await expect(closeEarly()).rejects.toThrow('seen by the action');
    stack.push('bars', () => void released.push('bars'));
    const failures = await stack.releaseAll();
    expect(failures.map((f) => [f.label, f.error instanceof Error ? f.error.message : f.error])).toEqual([['client', 'flush failed']]);
    expect(released).toEqual(['bars', 'redis']);
    expect(await stack.releaseAll()).toEqual([]);
  });

  it('names what is not released yet, newest first, including a release still running', async () => {
    const stack = createReleaseStack();
    let finish: () => void = () => {};
    stack.push('Redis connection', () => {});
    stack.push('workers', () => new Promise<void>((resolve) => (finish = resolve)));
    stack.push('progress bars', () => {});
    expect(stack.pending()).toEqual(['progress bars', 'workers', 'Redis connection']);
    const all = stack.releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stack.pending()).toEqual(['workers', 'Redis connection']);
    finish();
    await all;
    expect(stack.pending()).toEqual([]);
  });

  it('releases what a release opened', async () => {
    const stack = createReleaseStack();
    const released: string[] = [];
    stack.push('outer', () => {
      released.push('outer');
      stack.push('opened while releasing', () => void released.push('inner'));
    });
    await stack.releaseAll();
    expect(released).toEqual(['outer', 'inner']);
  });
});
