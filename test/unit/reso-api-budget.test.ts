/**
 * Feed budgets: `--feed-budget` text and presets → windows, and the in-memory budget's waits and
 * BUDGET_EXHAUSTED on a clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import { errorFields } from '../../src/shared/errors.js';
import { FEED_BUDGET_PRESETS, parseFeedBudget } from '../../src/feed/reso-api/budget-spec.js';
import { memoryBudget } from '../../src/feed/reso-api/memory-budget.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

describe('parseFeedBudget', () => {
  it('reads limits per s, m, h and d, and bytes per hour in B, KB, MB or GB (decimal)', () => {
    expect(parseFeedBudget('2/s,7200/h,40000/d,4GB/h')).toEqual({ perSecond: 2, perHour: 7200, perDay: 40_000, bytesPerHour: 4e9 });
    expect(parseFeedBudget(' 500 MB / h , 10/S ')).toEqual({ bytesPerHour: 5e8, perSecond: 10 });
    expect(parseFeedBudget('1500KB/h')).toEqual({ bytesPerHour: 1.5e6 });
    // A minute limit is held as whole requests per second; with a per-second limit the stricter holds.
    expect(parseFeedBudget('180/m')).toEqual({ perSecond: 3 });
    expect(parseFeedBudget('333/m,7/s')).toEqual({ perSecond: 5 });
    expect(parseFeedBudget('2/s,180/m')).toEqual({ perSecond: 2 });
  });

  it('knows the presets by name, in any case', () => {
    expect(parseFeedBudget('mls-grid')).toEqual({ perSecond: 2, perHour: 7200, perDay: 40_000, bytesPerHour: 4_000_000_000 });
    expect(parseFeedBudget('Trestle')).toEqual(FEED_BUDGET_PRESETS.trestle);
    expect(parseFeedBudget('bridge')).toEqual({ perSecond: 5, perHour: 5000 });
    const copy = parseFeedBudget('bridge');
    copy.perHour = 1;
    expect(FEED_BUDGET_PRESETS.bridge.perHour).toBe(5000);
  });

  it.each([
    ['', 'it is empty'],
    ['constructor', "'constructor' is not a limit"],
    ['fast', "'fast' is not a limit"],
    ['2/w', "'2/w' is not a limit"],
    ['0/s', "'0/s' must be a whole number above 0"],
    ['1.5/s', "'1.5/s' is not a limit"],
    ['4GB/d', 'bytes are budgeted per hour only'],
    ['30/m', 'a per-minute limit must be 60/m or more'],
    ['2/s,3/s', "'3/s' names a window given before"],
    ['1GB/h,5MB/h', "'5MB/h' names a window given before"],
    ['2/s,,3/h', "'' is not a limit"],
  ])('refuses %j with a UsageError naming the accepted forms', (text, why) => {
    let thrown: unknown;
    try {
      parseFeedBudget(text);
    } catch (error) {
      thrown = error;
    }
    expect(errorFields(thrown).code).toBe('USAGE');
    const message = (thrown as Error).message;
    expect(message).toContain(why);
    expect(message).toContain('mls-grid, trestle, bridge');
    expect(message).toContain('2/s,7200/h,40000/d,4GB/h');
  });
});

/** A clock the budget's sleeps move forward. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  let at = 1_000_000;
  const slept: number[] = [];
  return {
    now: () => at,
    sleep: (ms) => {
      slept.push(ms);
      at += ms;
      return Promise.resolve();
    },
    slept,
  };
}

describe('memoryBudget', () => {
  it('lets requests through while every window has room, then waits for the oldest to leave it', async () => {
    const time = fakeTime();
    const budget = memoryBudget({ perSecond: 2, perHour: 100 }, { ...time, marginMs: 0 });
    for (let index = 0; index < 5; index += 1) await budget.acquire({ maxWaitMs: 10_000 });
    expect(budget.acquired).toBe(5);
    // Two a second: the 3rd waits for the 1st to leave the rolling second, the 5th for the 3rd.
    expect(time.slept).toEqual([1001, 1001]);
  });

  it('adds its margin to the spans, and counts bytes per hour', async () => {
    const time = fakeTime();
    const budget = memoryBudget({ perSecond: 1, bytesPerHour: 1000 }, { ...time, marginMs: 250 });
    await budget.acquire({ maxWaitMs: 10_000 });
    await budget.acquire({ maxWaitMs: 10_000 });
    expect(time.slept).toEqual([1251]);
    await budget.addBytes(600);
    expect(await budget.bytesRoom?.()).toBe(true);
    await budget.addBytes(500);
    expect(await budget.bytesRoom?.()).toBe(false);
    expect(await memoryBudget({ perSecond: 1 }, time).bytesRoom?.()).toBe(true);
    await expect(budget.acquire({ maxWaitMs: 60_000 })).rejects.toMatchObject({
      code: ErrorCode.BUDGET_EXHAUSTED,
      details: { window: 'bytesPerHour', retryAtMs: time.now() + 3_600_250 + 1 },
    });
  });

  it('rejects with ErrorCode.BUDGET_EXHAUSTED naming the window when the wait passes maxWaitMs, and stops on abort', async () => {
    const time = fakeTime();
    const budget = memoryBudget({ perSecond: 5, perDay: 2 }, time);
    await budget.acquire({ maxWaitMs: 0 });
    await budget.acquire({ maxWaitMs: 0 });
    const exhausted = budget.acquire({ maxWaitMs: 3_600_000 });
    await expect(exhausted).rejects.toMatchObject({ code: ErrorCode.BUDGET_EXHAUSTED, details: { window: 'perDay' } });
    await expect(exhausted).rejects.toThrow(/perDay window is used up; the next request fits at \d{4}-/);
    expect(time.slept).toEqual([]);
    const stop = new AbortController();
    stop.abort();
    await expect(memoryBudget({}).acquire({ maxWaitMs: 0, signal: stop.signal })).rejects.toThrow();
  });
});
