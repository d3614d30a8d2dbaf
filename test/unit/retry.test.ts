/**
 * The retry module (src/api/retry.ts): the read loop decides with the table it is given, hands
 * back what its caller wants first, caps a Retry-After and stops waiting when aborted. The errors
 * are real ApiErrors thrown by the read; no request is made.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, isRateLimited, type ApiErrorDetails } from '../../src/api/errors.js';
import { retryAfterWithin, retryApiRead, type ReadRetry } from '../../src/api/retry.js';
import { DEFAULT_RETRY_TABLE, mergeRetryTable, retryTableOverrideSchema } from '../../src/api/retry-policy.js';

const sent = (extra: Partial<ApiErrorDetails>): ApiErrorDetails => ({ endpoint: 'listListings', phase: 'sent', ...extra });
const envelope500 = (): ApiError => new ApiError('ENVELOPE_FAILURE', 'envelope Code 500', sent({ status: 200, envelopeCode: 500 }));
const FAST: ReadRetry = { attempts: 4, baseMs: 1, maxMs: 5, table: DEFAULT_RETRY_TABLE };

/** A read that fails with `failures` in turn, then answers 'ok'; counts its calls. */
function scriptedRead(...failures: Error[]): { read: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    read: async () => {
      const failure = failures[calls++];
      if (failure !== undefined) throw failure;
      return 'ok';
    },
    calls: () => calls,
  };
}

describe('retryAfterWithin', () => {
  it('caps what the service asked for at the given maximum, and is undefined when it asked for nothing', () => {
    expect(retryAfterWithin(new ApiError('HTTP_STATUS', '503', sent({ status: 503, retryAfterMs: 3_600_000 })), 5_000)).toBe(5_000);
    expect(retryAfterWithin(new ApiError('HTTP_STATUS', '503', sent({ status: 503, retryAfterMs: 1_000 })), 5_000)).toBe(1_000);
    expect(retryAfterWithin(new ApiError('HTTP_STATUS', '503', sent({ status: 503 })), 5_000)).toBeUndefined();
    // A failure record serialised as a plain object reads the same.
    expect(retryAfterWithin({ code: 'HTTP_STATUS', details: { retryAfterMs: 90_000 } }, 60_000)).toBe(60_000);
  });
});

describe('retryApiRead', () => {
  it('retries what the given table retries, until it succeeds', async () => {
    const script = scriptedRead(envelope500(), envelope500());
    await expect(retryApiRead(script.read, FAST)).resolves.toBe('ok');
    expect(script.calls()).toBe(3);
  });

  it('decides with the table it is given: an override without envelope 500 fails at once', async () => {
    const table = mergeRetryTable(DEFAULT_RETRY_TABLE, retryTableOverrideSchema.parse({ envelopeCodes: '429' }));
    const script = scriptedRead(envelope500(), envelope500());
    await expect(retryApiRead(script.read, { ...FAST, table })).rejects.toMatchObject({
      code: 'ENVELOPE_FAILURE',
      details: { envelopeCode: 500 },
    });
    expect(script.calls()).toBe(1);
  });

  it('gives up after its attempts, rethrowing the last failure unchanged', async () => {
    const last = envelope500();
    const script = scriptedRead(envelope500(), last, envelope500());
    await expect(retryApiRead(script.read, { ...FAST, attempts: 2 })).rejects.toBe(last);
    expect(script.calls()).toBe(2);
  });

  it('hands back at once what the caller claims (a lookup hands rate limits to the queue)', async () => {
    const limited = new ApiError('HTTP_STATUS', '429', sent({ status: 429, envelopeCode: 429, retryAfterMs: 1_000 }));
    const script = scriptedRead(limited);
    await expect(retryApiRead(script.read, { ...FAST, handBack: isRateLimited })).rejects.toBe(limited);
    expect(script.calls()).toBe(1);
  });

  it('waits at most maxMs when the service asks for an hour (Retry-After: 3600)', async () => {
    const script = scriptedRead(new ApiError('HTTP_STATUS', '503', sent({ status: 503, retryAfterMs: 3_600_000 })));
    const started = Date.now();
    await expect(retryApiRead(script.read, { ...FAST, maxMs: 30 })).resolves.toBe('ok');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(script.calls()).toBe(2);
  }, 5_000);

  it('stops waiting when its signal aborts, and rejects with the reason', async () => {
    const controller = new AbortController();
    const script = scriptedRead(envelope500(), envelope500());
    const reason = new Error('stopping');
    setTimeout(() => controller.abort(reason), 20);
    const started = Date.now();
    await expect(
      retryApiRead(script.read, { ...FAST, baseMs: 60_000, maxMs: 60_000, random: () => 0.999, signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(script.calls()).toBe(1);
  });

  it('does not retry a failure without a code (a plain Error)', async () => {
    const script = scriptedRead(new Error('boom'));
    await expect(retryApiRead(script.read, FAST)).rejects.toThrow('boom');
    expect(script.calls()).toBe(1);
  });
});
