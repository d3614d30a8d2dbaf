/**
 * The API client's errors: one class, a stable string `code` per failure kind, and the endpoint
 * and listing key in both the message and `details`. Helpers read `code`/`details` only, so they
 * also work on errors that were serialised into a job's failure record.
 */
import { errorFields, ListingSyncError } from '../shared/errors.js';
import type { EndpointName } from './endpoints.js';
import { isRetryable } from './retry-policy.js';
import { ErrorCode } from '../shared/error-codes.js';

export const API_ERROR_CODES = [
  'ENVELOPE_FAILURE',
  'HTTP_STATUS',
  'AUTH_FAILED',
  'INVALID_JSON',
  'CONTRACT_MISMATCH',
  'NETWORK',
  'TIMEOUT',
  'MISSING_CREDENTIAL',
  'MISSING_CONFIG',
  'INVALID_INPUT',
  'ABORTED',
] as const satisfies readonly ErrorCode[];
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * How far the request got before it failed: 'before' (never sent: validation, credentials, signal
 * already aborted), 'connect' (no connection: refused, DNS, connect timeout), 'sent' (the request
 * may have reached the service).
 */
export type RequestPhase = 'before' | 'connect' | 'sent';

export interface ApiErrorDetails {
  endpoint: EndpointName;
  listingKey?: string;
  phase: RequestPhase;
  status?: number;
  envelopeCode?: number;
  envelopeMessage?: string;
  retryAfterMs?: number;
  /** The low-level code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT, …) for NETWORK/TIMEOUT. */
  causeCode?: string;
  /** For TIMEOUT: which of the three timeouts fired. */
  timeout?: 'connect' | 'headers' | 'body';
  /** Field problems for INVALID_INPUT / CONTRACT_MISMATCH, each "Field: reason". */
  problems?: string[];
}

export class ApiError extends ListingSyncError {
  declare readonly code: ApiErrorCode;
  declare readonly details: Readonly<ApiErrorDetails>;
  /** Milliseconds the service asked us to wait (Retry-After), when it said so. */
  readonly retryAfterMs: number | undefined;

  /**
   * `retryable` is the DEFAULT_RETRY_TABLE verdict, a hint for callers without config; the queue
   * decides with `isRetryable(err, configuredTable)`.
   */
  constructor(code: ApiErrorCode, reason: string, details: ApiErrorDetails, cause?: unknown) {
    const about = details.listingKey === undefined ? '' : ` (listing ${details.listingKey})`;
    const detailsRecord: Record<string, unknown> = { ...details };
    super(code, `${details.endpoint}${about}: ${reason}`, {
      retryable: isRetryable({ code, details }),
      details: detailsRecord,
      cause,
    });
    this.name = 'ApiError';
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** A numeric detail of any thrown value (status, envelopeCode, retryAfterMs), when it has one. */
function numberDetail(err: unknown, key: string): number | undefined {
  const value = errorFields(err).details[key];
  return typeof value === 'number' ? value : undefined;
}

/**
 * True when the failed call may nevertheless have been carried out by the service, so a create
 * must not be repeated blindly (look the key up first). Why each case:
 * - NETWORK / ABORTED after the request left: the service may have committed before the socket died.
 * - TIMEOUT waiting for headers or body: the service got the request and may still be working.
 * - HTTP 5xx / envelope Code ≥ 500: a failing server may fail after the write (proxy 502 after commit).
 * - INVALID_JSON: a 200 with an unreadable body gives no evidence either way.
 * Connection refused, DNS failures and connect timeouts never reached it; neither did anything
 * rejected before sending (input, credentials).
 */
export function mayHaveReachedService(err: unknown): boolean {
  const { code, details } = errorFields(err);
  if (details.phase !== 'sent') return false;
  switch (code) {
    case ErrorCode.NETWORK:
    case ErrorCode.TIMEOUT:
    case ErrorCode.ABORTED:
    case ErrorCode.INVALID_JSON:
      return true;
    case ErrorCode.HTTP_STATUS: {
      const status = numberDetail(err, 'status');
      return status !== undefined && status >= 500;
    }
    case ErrorCode.ENVELOPE_FAILURE: {
      const envelopeCode = numberDetail(err, 'envelopeCode');
      return envelopeCode !== undefined && envelopeCode >= 500;
    }
    default:
      return false;
  }
}

/** True for HTTP 429 and envelope Code 429: the caller should slow down (queue rate limit), not just back off. */
export function isRateLimited(err: unknown): boolean {
  const { code } = errorFields(err);
  if (code === ErrorCode.HTTP_STATUS) return numberDetail(err, 'status') === 429;
  if (code === ErrorCode.ENVELOPE_FAILURE) return numberDetail(err, 'envelopeCode') === 429;
  return false;
}

/** The wait the service asked for (Retry-After), in ms, when it sent one. */
export function retryAfterMs(err: unknown): number | undefined {
  return numberDetail(err, 'retryAfterMs');
}
