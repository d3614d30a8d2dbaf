/**
 * A stopped enqueue's bounds (src/queue/enqueue-stop.ts): once the stop is asked, steps that
 * answer still go through (up to an overall limit), one that does not is given up after the
 * grace, and later steps are given up at once; without a stop nothing is ever given up.
 */
import { describe, expect, it } from 'vitest';
import { enqueueStop, interruptedWhileEnqueuing } from '../../src/queue/enqueue-stop.js';

const never = (): Promise<never> => new Promise<never>(() => undefined);
const GRACE_MS = 100;

describe('a stopped enqueue', () => {
  it('lets steps that answer through after the stop, gives up a step that does not after the grace, and every later one at once', async () => {
    const controller = new AbortController();
    const stop = enqueueStop(controller.signal, GRACE_MS);
    expect(await stop.within(Promise.resolve(1))).toBe(1);
    controller.abort();
    expect(await stop.within(Promise.resolve(2))).toBe(2);
    const started = Date.now();
    const hung = await stop.within(never()).catch((thrown: unknown) => thrown);
    expect(stop.gaveUp(hung)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GRACE_MS - 5);
    expect(stop.gaveUp(await stop.within(Promise.resolve(3)).catch((thrown: unknown) => thrown))).toBe(true);
    stop.end();
  });

  it('goes on past the grace while steps keep completing, and gives up at the overall limit', async () => {
    const controller = new AbortController();
    const stop = enqueueStop(controller.signal, GRACE_MS, 4 * GRACE_MS);
    controller.abort();
    const started = Date.now();
    const step = (): Promise<string> => new Promise((resolve) => setTimeout(() => resolve('in'), GRACE_MS / 2));
    while (Date.now() - started < 2 * GRACE_MS) expect(await stop.within(step())).toBe('in');
    const late = await (async () => {
      for (;;) await stop.within(step());
    })().catch((thrown: unknown) => thrown);
    expect(stop.gaveUp(late)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * GRACE_MS - 5);
    stop.end();
  });

  it('the grace counts from the stop, also when it lands while a step waits', async () => {
    const controller = new AbortController();
    const stop = enqueueStop(controller.signal, GRACE_MS);
    const waiting = stop.within(never()).catch((thrown: unknown) => thrown);
    setTimeout(() => controller.abort(), 50);
    expect(stop.gaveUp(await waiting)).toBe(true);
    stop.end();
  });

  it('a failing step is its own failure, not a give-up; without a signal nothing is given up', async () => {
    const stop = enqueueStop(undefined, GRACE_MS);
    const failed = await stop.within(Promise.reject(new Error('NOPERM'))).catch((thrown: unknown) => thrown);
    expect(stop.gaveUp(failed)).toBe(false);
    const late = new Promise((resolve) => setTimeout(() => resolve('late'), GRACE_MS * 2));
    expect(await stop.within(late)).toBe('late');
  });

  it('says what is in and how to go on, as an interruption (exit 1)', () => {
    const error = interruptedWhileEnqueuing('run-1', 300, 3000);
    expect(error.code).toBe('INTERRUPTED');
    expect(error.message).toMatch(
      /^interrupted while enqueuing run run-1: at least 300 of its 3000 jobs are in the queue .*`listing-sync runs resume run-1 --work`/,
    );
  });
});
