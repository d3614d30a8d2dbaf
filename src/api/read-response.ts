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

/** Returns the parsed Data of a successful answer; throws an ApiError for every other answer. */
export function readResponse<T extends z.ZodType>(raw: RawResponse, dataSchema: T, ctx: ReadContext): z.infer<T> {
  if (raw.status !== 200) throw statusFailure(ctx, raw);
  const details = baseDetails(ctx, raw);
  const parsed = parseJson(raw.body);
  if (!parsed.ok) {
    throw new ApiError(ErrorCode.INVALID_JSON, `HTTP 200 but the body is not JSON (${raw.body.length} bytes)`, details);
  }
  const envelope = looseEnvelopeSchema.safeParse(parsed.value);
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
  const data = dataSchema.safeParse(envelope.data.Data);
  if (!data.success) {
    const problems = issueLines(data.error.issues, { ...API_ISSUES, prefix: ['Data'] });
    throw new ApiError(ErrorCode.CONTRACT_MISMATCH, `response Data does not match the spec: ${summarise(problems)}`, {
      ...details,
      problems,
    });
  }
  return data.data;
}
