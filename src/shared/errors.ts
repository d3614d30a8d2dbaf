/**
 * The project's error base. Every error we raise carries a stable string `code` that callers
 * classify by (never `instanceof` across module boundaries) and a `retryable` hint.
 * Convention from graphile-worker: unknown throwables are normalised once, by `coerceError`.
 * The codes themselves, and the exit code of each, live in one table: src/shared/error-codes.ts.
 */
import { ErrorCode } from './error-codes.js';

export class ListingSyncError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ListingSyncError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** Thrown for bad flags, bad env, bad config files: the CLI maps it to exit code 2. */
export class UsageError extends ListingSyncError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.USAGE, message, { details });
    this.name = 'UsageError';
  }
}

/** Turns any thrown value into an Error with a `code`, so handlers never see strings or plain objects. */
export function coerceError(thrown: unknown): Error & { code?: string } {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new ListingSyncError(ErrorCode.UNKNOWN, thrown);
  let text: string;
  try {
    text = JSON.stringify(thrown);
  } catch {
    text = String(thrown);
  }
  return new ListingSyncError(ErrorCode.UNKNOWN, `Non-error thrown: ${text}`);
}

/** What `errorFields` reads off a thrown value. */
export interface ErrorFields {
  /** The stable string `code`, when the value has one. */
  code?: string;
  /** Its `details` record; empty when it has none (never undefined, so callers index it directly). */
  details: Readonly<Record<string, unknown>>;
}

const NO_DETAILS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Reads `code` and `details` off any thrown value, by field and never by class, so it also works
 * on an error that was serialised into a job's failure record (a plain object). The one place
 * that does this: classification (retry table, rate limits, error mapping) reads through it.
 */
export function errorFields(thrown: unknown): ErrorFields {
  if (typeof thrown !== 'object' || thrown === null) return { details: NO_DETAILS };
  const { code, details } = thrown as { code?: unknown; details?: unknown };
  const fields: ErrorFields = {
    details: typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : NO_DETAILS,
  };
  if (typeof code === 'string') fields.code = code;
  return fields;
}

/**
 * Reads the stable `code` of any thrown value ('UNKNOWN' when it has none). A plain object is not
 * an error: it is coerced first, so it reads as UNKNOWN whatever fields it has.
 */
export function errorCode(thrown: unknown): string {
  return errorFields(coerceError(thrown)).code ?? ErrorCode.UNKNOWN;
}
