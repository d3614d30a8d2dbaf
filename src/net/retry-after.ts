/**
 * The one Retry-After parser, for the service's answers (src/api) and the feed server's (src/feed).
 */

/** Delay-seconds: digits, optionally with a fraction ("1.5"); a sign or an exponent is not a delay. */
const DELAY_SECONDS = /^\d+(\.\d+)?$/;

/**
 * Parses a Retry-After header: delay-seconds (RFC 9110 10.2.3; a fraction such as "1.5" is read too,
 * as some servers send it) or an HTTP date. Returns ms from `nowMs`, never negative (a date in the
 * past means "now"); undefined when absent or unreadable ("-1", "soon"). The first value counts when
 * the header came more than once.
 */
export function parseRetryAfter(header: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const value = (typeof header === 'string' ? header : header?.[0])?.trim();
  if (value === undefined || value === '') return undefined;
  if (DELAY_SECONDS.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date always names its weekday/month; this keeps Date.parse's leniency ("-1", "1.5.2") out.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * `parseRetryAfter`, at most `capMs`. Why capped: a server answering `Retry-After: 3600` must not
 * park a read, or stall a whole queue or run, for an hour; after the capped wait the caller's
 * attempt budget decides as for any other failure.
 */
export function retryAfterWithin(header: string | readonly string[] | undefined, capMs: number, nowMs: number): number | undefined {
  const asked = parseRetryAfter(header, nowMs);
  return asked === undefined ? undefined : Math.min(asked, capMs);
}
