/**
 * The ways a replication request fails as a whole, each a ListingSyncError with a stable code.
 * Messages name the server by `displaySource` (no credentials, no query string) and quote the
 * server only through `redact`, so no token or secret reaches a message, a log line or details.
 */
import { errorFields, ListingSyncError } from '../../shared/errors.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { createScrubber } from '../../shared/secret-scrub.js';

/** The longest piece of a server's own message quoted in an error. */
const QUOTE_LIMIT = 300;

/** `text` with every secret replaced, cut to a quotable length. */
export function redact(text: string, secrets: readonly string[]): string {
  const out = createScrubber(secrets).text(text);
  return out.length > QUOTE_LIMIT ? `${out.slice(0, QUOTE_LIMIT)}…` : out;
}

export function rateLimited(where: string, consecutive: number): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.FEED_RATE_LIMITED,
    `Feed ${where} answered 429 (too many requests) ${consecutive} times in a row; stopped so the MLS does not ` +
      `suspend the credential. Run again later, or lower --feed-budget.`,
    { details: { where, consecutive } },
  );
}

export function authFailed(where: string, what: string, fix: string, retryable = false): ListingSyncError {
  return new ListingSyncError(ErrorCode.FEED_AUTH_FAILED, `Feed ${where}: ${what}. ${fix}`, { retryable, details: { where } });
}

export function serverFailed(where: string, attempts: number, last: string): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.FEED_SERVER_ERROR,
    `Feed ${where} failed ${attempts} times in a row (last: ${last}); run again later.`,
    {
      retryable: true,
      details: { where, attempts, last },
    },
  );
}

/** A status the client cannot get past (400, 403, 404…): `message` is the server's, redacted. */
export function refused(where: string, status: number, message: string | undefined): ListingSyncError {
  const quoted = message === undefined ? '' : `: ${message}`;
  return new ListingSyncError(
    ErrorCode.FEED_UNREADABLE,
    `Feed ${where} is unreadable: the server answered HTTP ${status}${quoted}. Check the feed URL and options.`,
    {
      details: { where, status },
    },
  );
}

/** The status of a `refused` error, if that is what `thrown` is. */
export function refusedStatus(thrown: unknown): number | undefined {
  const { code, details } = errorFields(thrown);
  return code === ErrorCode.FEED_UNREADABLE && typeof details.status === 'number' ? details.status : undefined;
}

/**
 * The server counted more records than it served (`@odata.count`), and continuing after the last
 * one received brought none: what arrived is a prefix of the order, safe to apply, but nothing may
 * be deleted on its word and the run must not call itself done.
 */
export function pullIncomplete(where: string, received: number, expected: number | undefined): ListingSyncError {
  const counted = expected === undefined ? '' : ` of ${expected.toLocaleString('en-US')}`;
  return new ListingSyncError(
    ErrorCode.FEED_INCOMPLETE,
    `Feed ${where} stopped short: received ${received.toLocaleString('en-US')}${counted} records. What arrived is applied, ` +
      'nothing is deleted, and the next run reads on from the watermark; if it keeps happening, ask the MLS why its server ' +
      'stops serving records it counts.',
    { details: { where, received, ...(expected === undefined ? {} : { expected }) } },
  );
}
