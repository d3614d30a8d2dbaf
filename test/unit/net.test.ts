import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/net/backoff.js';
import { parseRetryAfter, retryAfterWithin } from '../../src/net/retry-after.js';
import { retryRead } from '../../src/net/retry-read.js';

const NOW = Date.parse('Sat, 21 Nov 2026 10:00:00 GMT');

describe('parseRetryAfter (the one parser, for the service and the feed server)', () => {
  it.each([
    ['1', 1000],
    ['0', 0],
    ['120', 120_000],
    ['1.5', 1500],
    ['0.25', 250],
    [' 2 ', 2000],
    [['3', '9'], 3000],
    ['Sat, 21 Nov 2026 10:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 09:59:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    ['   ', undefined],
    [undefined, undefined],
    ['-1', undefined],
    ['-1.5', undefined],
    ['1e3', undefined],
    ['1.5.2', undefined],
    ['12abc', undefined],
  ])('Retry-After %j → %j ms', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });

  it('caps the wait it honours', () => {
    expect(retryAfterWithin('3600', 60_000, NOW)).toBe(60_000);
    expect(retryAfterWithin('1.5', 60_000, NOW)).toBe(1500);
    expect(retryAfterWithin('Sat, 21 Nov 2026 10:00:05 GMT', 60_000, NOW)).toBe(5000);
    expect(retryAfterWithin('garbage', 60_000, NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('jitters below a ceiling that doubles per retry up to the cap', () => {
    const backoff = { baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, backoff, () => 0.999999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelay(3, backoff, () => 0)).toBe(0);
    expect(backoffDelay(10_000, backoff, () => 0.5)).toBe(500);
  });
});

describe('retryRead', () => {
  it('repeats what may be repeated, waits as asked, and rethrows what may not', async () => {
    let calls = 0;
    const flaky = async (): Promise<string> => {
      calls += 1;
      if (calls < 3) throw new Error('again');
      return 'ok';
    };
    const asked: unknown[] = [];
    const options = { attempts: 5, baseMs: 1, maxMs: 1, mayRetry: () => true, askedWaitMs: (error: unknown) => (asked.push(error), 0) };
    await expect(retryRead(flaky, options)).resolves.toBe('ok');
    expect(calls).toBe(3);
    expect(asked).toHaveLength(2);

    const final = new Error('final');
    await expect(retryRead(() => Promise.reject(final), { ...options, mayRetry: () => false })).rejects.toBe(final);
  });
});
