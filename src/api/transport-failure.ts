/**
 * Turns what undici/net throw into an ApiError with code NETWORK, TIMEOUT or ABORTED, recording
 * whether the request may have left (phase) so that mayHaveReachedService can tell.
 */
import { errorFields } from '../shared/errors.js';
import type { EndpointName } from './endpoints.js';
import { ApiError, type ApiErrorDetails } from './errors.js';
import { ErrorCode } from '../shared/error-codes.js';

const TIMEOUT_CODES: Readonly<Record<string, 'connect' | 'headers' | 'body'>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** Failures that happen before a connection exists: the request cannot have been sent. */
const CONNECT_PHASE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

function lowLevelCode(thrown: unknown): string | undefined {
  let current: unknown = thrown;
  // undici wraps some socket errors (cause chain); the first string code wins.
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { code } = errorFields(current);
    if (code !== undefined) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface FailureContext {
  endpoint: EndpointName;
  listingKey: string | undefined;
  signal: AbortSignal | undefined;
  /** Where the request went (`scheme://host[:port]`, never credentials) and the setting that says so. */
  target?: { origin: string; setting: string };
}

/** " to ORIGIN" and the fix of a connection that failed: an operator reads the address and the setting to check. */
function where(ctx: FailureContext): { to: string; fix: string } {
  if (ctx.target === undefined) return { to: '', fix: '' };
  return { to: ` to ${ctx.target.origin}`, fix: `: check ${ctx.target.setting} and that the service is up` };
}

function base(ctx: FailureContext): Pick<ApiErrorDetails, 'endpoint' | 'listingKey'> {
  return { endpoint: ctx.endpoint, ...(ctx.listingKey === undefined ? {} : { listingKey: ctx.listingKey }) };
}

/** Classifies a throwable from request()/body reading. Already-classified ApiErrors pass through. */
export function transportFailure(thrown: unknown, ctx: FailureContext): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (ctx.signal?.aborted) {
    return new ApiError(ErrorCode.ABORTED, 'request aborted by the caller', { ...base(ctx), phase: 'sent' }, thrown);
  }
  const causeCode = lowLevelCode(thrown) ?? 'UNKNOWN';
  const timeout = TIMEOUT_CODES[causeCode];
  if (timeout !== undefined) {
    const phase = timeout === 'connect' ? 'connect' : 'sent';
    return new ApiError(ErrorCode.TIMEOUT, `${timeout} timeout (${causeCode})`, { ...base(ctx), phase, causeCode, timeout }, thrown);
  }
  const phase = CONNECT_PHASE_CODES.has(causeCode) ? 'connect' : 'sent';
  const { to, fix } = where(ctx);
  const what =
    phase === 'connect'
      ? `could not connect${to} (${causeCode})${fix}`
      : `connection${to} failed after the request was sent (${causeCode})`;
  return new ApiError(ErrorCode.NETWORK, what, { ...base(ctx), phase, causeCode }, thrown);
}
