/**
 * The project's error base. Every error we raise carries a stable string `code` that callers
 * classify by (never `instanceof` across module boundaries) and a `retryable` hint.
 * Convention from graphile-worker: unknown throwables are normalised once, by `coerceError`.
 */
export class ListingSyncError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ListingSyncError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/**
 * A job found its listing key claimed by another job that is writing it now. Not a failure: the
 * queue delays the job (details.retryInMs) without using an attempt.
 */
export const KEY_CLAIMED = 'KEY_CLAIMED';

/** Thrown for bad flags, bad env, bad config files: the CLI maps it to exit code 2. */
export class UsageError extends ListingSyncError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('USAGE', message, { details });
    this.name = 'UsageError';
  }
}

/** Turns any thrown value into an Error with a `code`, so handlers never see strings or plain objects. */
export function coerceError(thrown: unknown): Error & { code?: string } {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new ListingSyncError('UNKNOWN', thrown);
  let text: string;
  try {
    text = JSON.stringify(thrown);
  } catch {
    text = String(thrown);
  }
  return new ListingSyncError('UNKNOWN', `Non-error thrown: ${text}`);
}

/** Reads the stable `code` of any thrown value ('UNKNOWN' when it has none). */
export function errorCode(thrown: unknown): string {
  const err = coerceError(thrown) as { code?: unknown };
  return typeof err.code === 'string' ? err.code : 'UNKNOWN';
}
