/**
 * What a failed call says about the service as a whole (error-mapping.ts `serviceVerdict`), which
 * the service breaker counts: only failures a service down for everyone shows count as 'down';
 * any answer, even a refusal, is 'up'; what was never sent says nothing.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { DEFAULT_RETRY_TABLE, mergeRetryTable } from '../../src/api/retry-policy.js';
import { ListingSyncError } from '../../src/shared/errors.js';
import { classifyError, serviceVerdict } from '../../src/queue/error-mapping.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

const sent = { endpoint: 'createListing', phase: 'sent' } as const;

describe('serviceVerdict', () => {
  it.each([
    ['a connection reset', new ApiError('NETWORK', 'socket closed', { ...sent, causeCode: 'UND_ERR_SOCKET' }), 'down'],
    ['a refused connection', new ApiError('NETWORK', 'refused', { ...sent, phase: 'connect', causeCode: 'ECONNREFUSED' }), 'down'],
    ['a timeout', new ApiError('TIMEOUT', 'no headers', { ...sent, timeout: 'headers' }), 'down'],
    ['an HTTP 503', new ApiError('HTTP_STATUS', '503', { ...sent, status: 503 }), 'down'],
    ['an envelope Code 500', new ApiError('ENVELOPE_FAILURE', 'Internal', { ...sent, envelopeCode: 500 }), 'down'],
    ['an envelope Code 400 (a rejected listing)', new ApiError('ENVELOPE_FAILURE', 'bad', { ...sent, envelopeCode: 400 }), 'up'],
    ['an HTTP 429', new ApiError('HTTP_STATUS', '429', { ...sent, status: 429 }), 'up'],
    ['a rejected credential', new ApiError('AUTH_FAILED', 'rejected', { ...sent, status: 401 }), 'up'],
    ['an invalid request never sent', new ApiError('INVALID_INPUT', 'bad', { ...sent, phase: 'before' }), 'none'],
    ['our own abort', new ApiError('ABORTED', 'stopping', sent), 'none'],
    ['a Redis error', new Error('Connection is closed.'), 'none'],
  ])('%s is %s', (_name, err, verdict) => {
    expect(serviceVerdict(err, DEFAULT_RETRY_TABLE)).toBe(verdict);
  });

  it('follows the configured retry table: a 5xx it does not retry is an answer, not an outage', () => {
    const table = mergeRetryTable(DEFAULT_RETRY_TABLE, { envelopeCodes: [503] });
    expect(serviceVerdict(new ApiError('ENVELOPE_FAILURE', 'Internal', { ...sent, envelopeCode: 500 }), table)).toBe('up');
    expect(serviceVerdict(new ApiError('ENVELOPE_FAILURE', 'Busy', { ...sent, envelopeCode: 503 }), table)).toBe('down');
  });

  it('a call the open breaker refused is mapped to the pause, not to a retry', () => {
    expect(classifyError(new ListingSyncError(ErrorCode.SERVICE_DOWN, 'not sent'), DEFAULT_RETRY_TABLE)).toBe('service-down');
  });
});
