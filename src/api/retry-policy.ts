/**
 * The one table that decides whether a failed API call may be tried again. Classifies by the
 * error's string `code` and its `details` (status, envelopeCode), never by `instanceof`, so it
 * works on errors that crossed a job boundary as plain objects.
 *
 * The service documents no error codes (api-spec 7.3/7.4), so the table is data that config may
 * override (`mergeRetryTable` + `retryTableOverrideSchema`).
 */
import { z } from 'zod';
import { errorFields } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

/** One code, or an inclusive range (`to` absent = no upper bound). */
export type CodeMatcher = number | { readonly from: number; readonly to?: number };

export interface RetryTable {
  /** Error `code`s that are retryable whatever their details. */
  readonly errorCodes: readonly string[];
  /** HTTP statuses of 'HTTP_STATUS' errors that are retryable. */
  readonly httpStatuses: readonly CodeMatcher[];
  /** Envelope `Code`s of 'ENVELOPE_FAILURE' errors that are retryable. */
  readonly envelopeCodes: readonly CodeMatcher[];
}

export const DEFAULT_RETRY_TABLE: RetryTable = {
  // Why each entry:
  // - NETWORK / TIMEOUT: the connection, not the request, failed; the same request may succeed.
  //   (Creates are protected separately: the queue looks the key up first, see mayHaveReachedService.)
  // - INVALID_JSON: a 200 whose body is not JSON is in practice a proxy or load balancer HTML error
  //   page in front of the service, which is transient; the attempt budget bounds the cost if not.
  // - ABORTED: we aborted (worker shutdown), the service did not refuse; the job must run again.
  // Not listed, so never retried: AUTH_FAILED, INVALID_INPUT, CONTRACT_MISMATCH, MISSING_CREDENTIAL,
  // MISSING_CONFIG — repeating the same request cannot change their outcome.
  errorCodes: [ErrorCode.NETWORK, ErrorCode.TIMEOUT, ErrorCode.INVALID_JSON, ErrorCode.ABORTED],
  // Why: 408/429 ask the client to come back; 5xx are server-side and usually transient.
  httpStatuses: [408, 429, { from: 500, to: 599 }],
  // Why: by analogy with HTTP, envelope Codes ≥ 500 are service faults and 429 is throttling;
  // other codes (400-like business rejections) repeat identically.
  envelopeCodes: [429, { from: 500 }],
};

function matches(value: unknown, matchers: readonly CodeMatcher[]): boolean {
  if (typeof value !== 'number') return false;
  return matchers.some((m) => (typeof m === 'number' ? m === value : value >= m.from && (m.to === undefined || value <= m.to)));
}

/** True when the table says the failed call may be repeated unchanged. Unknown throwables are not retryable. */
export function isRetryable(error: unknown, table: RetryTable = DEFAULT_RETRY_TABLE): boolean {
  const { code, details } = errorFields(error);
  if (code === undefined) return false;
  if (table.errorCodes.includes(code)) return true;
  if (code === ErrorCode.HTTP_STATUS) return matches(details.status, table.httpStatuses);
  if (code === ErrorCode.ENVELOPE_FAILURE) return matches(details.envelopeCode, table.envelopeCodes);
  return false;
}

/** Parses "500", "500-599" or "500-" (open-ended) into a matcher. */
function parseMatcher(text: string, ctx: z.RefinementCtx): CodeMatcher {
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(text);
  if (!match?.[1]) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a code, a range "from-to" or an open range "from-"` });
    return z.NEVER;
  }
  const from = Number(match[1]);
  if (match[2] === undefined) return from;
  if (match[3] === undefined) return { from };
  const to = Number(match[3]);
  if (to < from) {
    ctx.addIssue({ code: 'custom', message: `range "${text}" ends before it starts` });
    return z.NEVER;
  }
  return { from, to };
}

const rangeSchema = z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative().optional() }).strict();
const matcherSchema = z.union([z.number().int().nonnegative(), rangeSchema, z.string().transform(parseMatcher)]);

/** A list of codes as an array or as the comma-separated text an env var holds ("500,503,429,1001"). */
const matcherListSchema = z
  .union([
    z.string().transform((s) => s.split(',').filter((part) => part.trim() !== '')),
    z.array(z.union([z.number(), z.string(), rangeSchema])),
  ])
  .pipe(z.array(matcherSchema));

const errorCodeListSchema = z
  .union([z.string().transform((s) => s.split(',')), z.array(z.string())])
  .transform((codes) => codes.map((c) => c.trim().toUpperCase()).filter((c) => c !== ''));

/**
 * What config may override. Each member given REPLACES the default's member (so
 * `envelopeCodes: "500,503"` narrows retries to exactly those), members left out keep the default.
 */
export const retryTableOverrideSchema = z
  .object({
    errorCodes: errorCodeListSchema.optional(),
    httpStatuses: matcherListSchema.optional(),
    envelopeCodes: matcherListSchema.optional(),
  })
  .strict();
export type RetryTableOverride = z.infer<typeof retryTableOverrideSchema>;

/** The base table with each member the override gives replaced. */
export function mergeRetryTable(base: RetryTable, override: RetryTableOverride = {}): RetryTable {
  return {
    errorCodes: override.errorCodes ?? base.errorCodes,
    httpStatuses: override.httpStatuses ?? base.httpStatuses,
    envelopeCodes: override.envelopeCodes ?? base.envelopeCodes,
  };
}
