/**
 * Reads one HTTP answer into the endpoint's Data, or the ApiError that says why not. Order:
 * HTTP status, JSON, envelope (looseEnvelopeSchema), envelope Success/Code, then Data's schema.
 */
import type { z } from 'zod';
import type { EndpointName } from './endpoints.js';
import { parseRetryAfter } from '../net/retry-after.js';
import { issueLines } from '../shared/zod-issues.js';
import { rejectedCredentialSetting } from './credential-names.js';
import { ApiError, type ApiErrorDetails } from './errors.js';
import { looseEnvelopeSchema } from './schemas.js';
import { ErrorCode } from '../shared/error-codes.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ReadContext {
  endpoint: EndpointName;
  listingKey: string | undefined;
  nowMs: number;
}

type LooseEnvelope = z.infer<typeof looseEnvelopeSchema>;

/** How the API client words a zod issue: "Items[2].MLSNumber: …", "(body): …" for the whole value. */
export const API_ISSUES = { whole: '(body)', brackets: true } as const;

/** At most five problems in a message (a page of 100 bad items would otherwise flood the log). */
function summarise(problems: string[]): string {
  const shown = problems.slice(0, 5).join('; ');
  return problems.length > 5 ? `${shown}; (+${problems.length - 5} more)` : shown;
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

function baseDetails(ctx: ReadContext, raw: RawResponse): ApiErrorDetails {
  const retryAfterMs = parseRetryAfter(raw.headers['retry-after'], ctx.nowMs);
  return {
    endpoint: ctx.endpoint,
    ...(ctx.listingKey === undefined ? {} : { listingKey: ctx.listingKey }),
    phase: 'sent',
    status: raw.status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

function envelopeDetails(envelope: LooseEnvelope | undefined): Pick<ApiErrorDetails, 'envelopeCode' | 'envelopeMessage'> {
  return envelope === undefined ? {} : { envelopeCode: envelope.Code, envelopeMessage: envelope.Message };
}

function isAuthCode(code: number): boolean {
  return code === 401 || code === 403;
}

function statusFailure(ctx: ReadContext, raw: RawResponse): ApiError {
  const parsed = parseJson(raw.body);
  const envelope = parsed.ok ? looseEnvelopeSchema.safeParse(parsed.value).data : undefined;
  const details = { ...baseDetails(ctx, raw), ...envelopeDetails(envelope) };
  const said = envelope?.Message ? ` — ${envelope.Message}` : '';
  if (isAuthCode(raw.status)) {
    const check = rejectedCredentialSetting(ctx.endpoint, envelope?.Message);
    return new ApiError(ErrorCode.AUTH_FAILED, `credential rejected (HTTP ${raw.status}${said}): check ${check}`, details);
  }
  return new ApiError(ErrorCode.HTTP_STATUS, `HTTP ${raw.status}${said}`, details);
}

/**
 * Whether `value` is the envelope of a successful answer (Success true, Code 200), checked by
 * hand with looseEnvelopeSchema's checks (Version and Message strings), for the one shape every
 * write answers with. Why by hand: it runs once per listing
 * written, and zod builds a result object and walks its shape each time; anything else goes
 * through the schema, whose issues word the error.
 */
function isSuccessEnvelope(value: unknown): value is { Data: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { Version, Success, Code, Message } = value as Record<string, unknown>;
  return Success === true && Code === 200 && typeof Version === 'string' && typeof Message === 'string';
}

/** Returns the parsed Data of a successful answer; throws an ApiError for every other answer. */
export function readResponse<T extends z.ZodType>(raw: RawResponse, dataSchema: T, ctx: ReadContext): z.infer<T> {
  if (raw.status !== 200) throw statusFailure(ctx, raw);
  const parsed = parseJson(raw.body);
  if (!parsed.ok) {
    throw new ApiError(ErrorCode.INVALID_JSON, `HTTP 200 but the body is not JSON (${raw.body.length} bytes)`, baseDetails(ctx, raw));
  }
  if (isSuccessEnvelope(parsed.value)) return parseData(raw, parsed.value.Data, dataSchema, ctx);
  const envelope = looseEnvelopeSchema.safeParse(parsed.value);
  const details = baseDetails(ctx, raw);
  if (!envelope.success) {
    const problems = issueLines(envelope.error.issues, { ...API_ISSUES, prefix: ['envelope'] });
    throw new ApiError(ErrorCode.CONTRACT_MISMATCH, `response does not match the envelope: ${summarise(problems)}`, {
      ...details,
      problems,
    });
  }
  const { Success, Code, Message } = envelope.data;
  if (!Success || Code !== 200) {
    const withEnvelope = { ...details, ...envelopeDetails(envelope.data) };
    const reason = `envelope Code ${Code}, Success ${String(Success)}${Message ? ` — ${Message}` : ''}`;
    if (isAuthCode(Code)) {
      const check = rejectedCredentialSetting(ctx.endpoint, Message);
      throw new ApiError(ErrorCode.AUTH_FAILED, `credential rejected (${reason}): check ${check}`, withEnvelope);
    }
    throw new ApiError(ErrorCode.ENVELOPE_FAILURE, reason, withEnvelope);
  }
  return parseData(raw, envelope.data.Data, dataSchema, ctx);
}

/** Data of a successful envelope through the endpoint's schema, or the CONTRACT_MISMATCH naming what differs. */
function parseData<T extends z.ZodType>(raw: RawResponse, value: unknown, dataSchema: T, ctx: ReadContext): z.infer<T> {
  const data = dataSchema.safeParse(value);
  if (!data.success) {
    const problems = issueLines(data.error.issues, { ...API_ISSUES, prefix: ['Data'] });
    throw new ApiError(ErrorCode.CONTRACT_MISMATCH, `response Data does not match the spec: ${summarise(problems)}`, {
      ...baseDetails(ctx, raw),
      problems,
    });
  }
  return data.data;
}
