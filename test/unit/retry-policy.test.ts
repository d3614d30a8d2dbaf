import { describe, expect, it } from 'vitest';
import { ApiError, isRateLimited, mayHaveReachedService, retryAfterMs, type ApiErrorDetails } from '../../src/api/errors.js';
import { errors as undiciErrors } from 'undici';
import { transportFailure } from '../../src/api/transport-failure.js';
import { DEFAULT_RETRY_TABLE, isRetryable, mergeRetryTable, retryTableOverrideSchema } from '../../src/api/retry-policy.js';

const sent = (extra: Partial<ApiErrorDetails> = {}): ApiErrorDetails => ({ endpoint: 'createListing', phase: 'sent', ...extra });

describe('isRetryable with DEFAULT_RETRY_TABLE', () => {
  it.each([
    ['NETWORK', true],
    ['TIMEOUT', true],
    ['INVALID_JSON', true],
    ['ABORTED', true],
    ['AUTH_FAILED', false],
    ['INVALID_INPUT', false],
    ['CONTRACT_MISMATCH', false],
    ['MISSING_CREDENTIAL', false],
    ['MISSING_CONFIG', false],
    ['UNKNOWN', false],
  ])('code %s → %s', (code, expected) => {
    expect(isRetryable({ code, details: {} })).toBe(expected);
  });

  it.each([
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [599, true],
    [429, true],
    [408, true],
    [400, false],
    [404, false],
    [409, false],
    [422, false],
    [302, false],
    [600, false],
  ])('HTTP status %i → %s', (status, expected) => {
    expect(isRetryable({ code: 'HTTP_STATUS', details: { status } })).toBe(expected);
  });

  it.each([
    [500, true],
    [503, true],
    [1001, true],
    [429, true],
    [400, false],
    [404, false],
    [422, false],
    [300, false],
    [0, false],
  ])('envelope Code %i → %s', (envelopeCode, expected) => {
    expect(isRetryable({ code: 'ENVELOPE_FAILURE', details: { envelopeCode } })).toBe(expected);
  });

  it('classifies by code, so a plain object from a job failure record works like an ApiError', () => {
    const live = new ApiError('HTTP_STATUS', 'HTTP 503', sent({ status: 503 }));
    const revived: unknown = JSON.parse(JSON.stringify({ code: live.code, details: live.details }));
    expect(isRetryable(live)).toBe(true);
    expect(isRetryable(revived)).toBe(true);
  });

  it('does not retry throwables without a code', () => {
    expect(isRetryable(new Error('boom'))).toBe(false);
    expect(isRetryable('NETWORK')).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
    expect(isRetryable({ code: 'HTTP_STATUS' })).toBe(false);
  });

  it('sets ApiError.retryable from the default table', () => {
    expect(new ApiError('NETWORK', 'x', sent()).retryable).toBe(true);
    expect(new ApiError('AUTH_FAILED', 'x', sent({ status: 401 })).retryable).toBe(false);
  });
});

describe('retry table overrides', () => {
  it('parses the env form of envelope codes and replaces only that member', () => {
    const override = retryTableOverrideSchema.parse({ envelopeCodes: '500,503,429,1001' });
    const table = mergeRetryTable(DEFAULT_RETRY_TABLE, override);
    expect(table.envelopeCodes).toEqual([500, 503, 429, 1001]);
    expect(table.httpStatuses).toBe(DEFAULT_RETRY_TABLE.httpStatuses);
    expect(isRetryable({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 1001 } }, table)).toBe(true);
    expect(isRetryable({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 502 } }, table)).toBe(false);
  });

  it('accepts ranges and open ranges', () => {
    const override = retryTableOverrideSchema.parse({ httpStatuses: '502-504, 429', envelopeCodes: ['900-', 42] });
    expect(override.httpStatuses).toEqual([{ from: 502, to: 504 }, 429]);
    const table = mergeRetryTable(DEFAULT_RETRY_TABLE, override);
    expect(isRetryable({ code: 'HTTP_STATUS', details: { status: 503 } }, table)).toBe(true);
    expect(isRetryable({ code: 'HTTP_STATUS', details: { status: 500 } }, table)).toBe(false);
    expect(isRetryable({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 123456 } }, table)).toBe(true);
    expect(isRetryable({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 42 } }, table)).toBe(true);
  });

  it('lets config stop retrying INVALID_JSON', () => {
    const table = mergeRetryTable(DEFAULT_RETRY_TABLE, retryTableOverrideSchema.parse({ errorCodes: 'network, timeout' }));
    expect(table.errorCodes).toEqual(['NETWORK', 'TIMEOUT']);
    expect(isRetryable({ code: 'INVALID_JSON' }, table)).toBe(false);
    expect(isRetryable({ code: 'NETWORK' }, table)).toBe(true);
  });

  it.each([{ envelopeCodes: '5xx' }, { envelopeCodes: '600-500' }, { httpStatuses: [-1] }, { other: '1' }])(
    'rejects %j with a message',
    (input) => {
      const result = retryTableOverrideSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues.length).toBeGreaterThan(0);
    },
  );

  it('keeps the base table when the override is empty', () => {
    expect(mergeRetryTable(DEFAULT_RETRY_TABLE, {})).toEqual(DEFAULT_RETRY_TABLE);
  });
});

describe('mayHaveReachedService', () => {
  it.each([
    ['NETWORK after sending (ECONNRESET)', new ApiError('NETWORK', 'x', sent({ causeCode: 'ECONNRESET' })), true],
    ['NETWORK connection refused', new ApiError('NETWORK', 'x', sent({ phase: 'connect', causeCode: 'ECONNREFUSED' })), false],
    ['TIMEOUT headers', new ApiError('TIMEOUT', 'x', sent({ timeout: 'headers' })), true],
    ['TIMEOUT body', new ApiError('TIMEOUT', 'x', sent({ timeout: 'body' })), true],
    ['TIMEOUT connect', new ApiError('TIMEOUT', 'x', sent({ phase: 'connect', timeout: 'connect' })), false],
    ['HTTP 503', new ApiError('HTTP_STATUS', 'x', sent({ status: 503 })), true],
    ['HTTP 429', new ApiError('HTTP_STATUS', 'x', sent({ status: 429 })), false],
    ['envelope 500', new ApiError('ENVELOPE_FAILURE', 'x', sent({ status: 200, envelopeCode: 500 })), true],
    ['envelope 400', new ApiError('ENVELOPE_FAILURE', 'x', sent({ status: 200, envelopeCode: 400 })), false],
    ['AUTH_FAILED', new ApiError('AUTH_FAILED', 'x', sent({ status: 401 })), false],
    ['INVALID_INPUT', new ApiError('INVALID_INPUT', 'x', { endpoint: 'createListing', phase: 'before' }), false],
    ['ABORTED before sending', new ApiError('ABORTED', 'x', { endpoint: 'createListing', phase: 'before' }), false],
  ])('%s → %s', (_label, err, expected) => {
    expect(mayHaveReachedService(err)).toBe(expected);
  });
});

describe('rate limiting and Retry-After', () => {
  it('recognises HTTP 429 and envelope Code 429 only', () => {
    expect(isRateLimited(new ApiError('HTTP_STATUS', 'x', sent({ status: 429 })))).toBe(true);
    expect(isRateLimited(new ApiError('ENVELOPE_FAILURE', 'x', sent({ envelopeCode: 429 })))).toBe(true);
    expect(isRateLimited(new ApiError('HTTP_STATUS', 'x', sent({ status: 503 })))).toBe(false);
    expect(isRateLimited(new Error('429'))).toBe(false);
  });

  it('exposes retryAfterMs on the error and through the helper', () => {
    const err = new ApiError('ENVELOPE_FAILURE', 'x', sent({ envelopeCode: 429, retryAfterMs: 1000 }));
    expect(err.retryAfterMs).toBe(1000);
    expect(retryAfterMs(err)).toBe(1000);
    expect(retryAfterMs(new ApiError('NETWORK', 'x', sent()))).toBeUndefined();
  });

  it('names the endpoint and the listing key in the message and details', () => {
    const err = new ApiError('HTTP_STATUS', 'HTTP 503', sent({ listingKey: 'MLS-7', status: 503 }));
    expect(err.message).toBe('createListing (listing MLS-7): HTTP 503');
    expect(err.details).toMatchObject({ endpoint: 'createListing', listingKey: 'MLS-7' });
  });
});

describe('transportFailure classifies what undici and net throw', () => {
  const ctx = { endpoint: 'createListing' as const, listingKey: 'MLS-1', signal: undefined };
  const withCode = (code: string) => Object.assign(new Error(code), { code });

  it.each([
    ['connect timeout', new undiciErrors.ConnectTimeoutError(), 'TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', false],
    ['headers timeout', new undiciErrors.HeadersTimeoutError(), 'TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', true],
    ['body timeout', new undiciErrors.BodyTimeoutError(), 'TIMEOUT', 'UND_ERR_BODY_TIMEOUT', true],
    ['socket closed', new undiciErrors.SocketError('other side closed'), 'NETWORK', 'UND_ERR_SOCKET', true],
    ['ECONNRESET', withCode('ECONNRESET'), 'NETWORK', 'ECONNRESET', true],
    ['EPIPE', withCode('EPIPE'), 'NETWORK', 'EPIPE', true],
    ['ECONNREFUSED', withCode('ECONNREFUSED'), 'NETWORK', 'ECONNREFUSED', false],
    ['ENOTFOUND', withCode('ENOTFOUND'), 'NETWORK', 'ENOTFOUND', false],
    ['wrapped ECONNRESET', new Error('fetch failed', { cause: withCode('ECONNRESET') }), 'NETWORK', 'ECONNRESET', true],
  ])('%s → %s', (_label, thrown, code, causeCode, reached) => {
    const err = transportFailure(thrown, ctx);
    expect(err.code).toBe(code);
    expect(err.details.causeCode).toBe(causeCode);
    expect(err.message).toContain('(listing MLS-1)');
    expect(mayHaveReachedService(err)).toBe(reached);
    expect(isRetryable(err)).toBe(true);
  });

  it('is ABORTED when the caller aborted, whatever was thrown', () => {
    const controller = new AbortController();
    controller.abort();
    expect(transportFailure(controller.signal.reason, { ...ctx, signal: controller.signal }).code).toBe('ABORTED');
  });
});
