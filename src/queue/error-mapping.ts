/**
 * THE one place that maps errors to BullMQ (docs/architecture.md, convention 4):
 * - authentication failure → pause the whole queue, log loudly at error level, put the job back
 *   (failing every job of a run because a key expired would bury the cause under thousands of
 *   identical failures; ops fixes the key and resumes);
 * - rate limited (HTTP 429 / envelope Code 429) → hold the whole queue for Retry-After (or a
 *   default; queue-hold.ts) and put the job back: the attempt is not used up, and no other job
 *   hammers the service;
 * - the service down for everyone (the breaker is open: service-breaker.ts) → hold the whole queue
 *   with its rate limit and put the job back: an outage uses no attempt;
 * - not sent because the queue is held and the process is stopping (queue-hold.ts) → put the job
 *   back: it was never sent, so it uses no attempt;
 * - retryable per the retry table → rethrow for exponential backoff (UnrecoverableError on the
 *   worker's last attempt: the worker that runs the job decides how many it gets);
 * - anything else → UnrecoverableError, keeping the Code and Message on the job
 *   ("ENVELOPE_FAILURE 400: Status: must be one of …").
 * Errors that are not API errors (a Redis blip inside a processor) are retried: they say nothing
 * about the request, and the attempt budget bounds them.
 */
import { type Queue, UnrecoverableError, Worker } from 'bullmq';
import { API_ERROR_CODES, isRateLimited } from '../api/errors.js';
import { retryAfterWithin } from '../api/retry.js';
import { isRetryable, type RetryTable } from '../api/retry-policy.js';
import { coerceError, errorCode, errorFields } from '../shared/errors.js';
import type { Logger } from '../runtime/logger.js';
import { queueDisplayName } from './queues.js';
import { ErrorCode } from '../shared/error-codes.js';

export type ErrorVerdict = 'auth' | 'rate-limited' | 'service-down' | 'held' | 'retry' | 'fatal';

const API_CODES: ReadonlySet<string> = new Set(API_ERROR_CODES);

/**
 * What a call's failure says about the service as a whole (the breaker counts it):
 * - 'down': it failed the way a service that is down for everyone fails — no connection, a reset,
 *   a timeout, an HTTP 5xx or envelope failure the retry table calls transient;
 * - 'up': it answered, if only to refuse this call (a 4xx, a business rejection, a 429, a rejected
 *   credential): whatever is wrong is this call's, not an outage;
 * - 'none': the call says nothing either way (never sent, aborted by us, not a service call).
 */
export function serviceVerdict(err: unknown, table: RetryTable): 'down' | 'up' | 'none' {
  const { code, details } = errorFields(err);
  if (code === undefined || !API_CODES.has(code) || code === ErrorCode.ABORTED || details.phase === 'before') return 'none';
  if (isRateLimited(err)) return 'up';
  return isRetryable(err, table) ? 'down' : 'up';
}

/** Decides what BullMQ should do with a failed attempt; `table` is the configured retry table. */
export function classifyError(err: unknown, table: RetryTable): ErrorVerdict {
  const code = errorCode(err);
  if (code === ErrorCode.SERVICE_DOWN) return 'service-down';
  if (code === ErrorCode.QUEUE_HELD) return 'held';
  if (code === ErrorCode.AUTH_FAILED) return 'auth';
  if (isRateLimited(err)) return 'rate-limited';
  if (!API_CODES.has(code)) return err instanceof UnrecoverableError ? 'fatal' : 'retry';
  return isRetryable(err, table) ? 'retry' : 'fatal';
}

/** The Code and Message a failure shows on its job: "ENVELOPE_FAILURE 400: Status: must be …". */
export function describeFailure(err: unknown): { code: string; message: string } {
  const error = coerceError(err);
  const code = errorCode(err);
  const { details } = errorFields(err);
  const number = details.envelopeCode ?? details.status;
  const envelopeMessage = details.envelopeMessage;
  const text = typeof envelopeMessage === 'string' && envelopeMessage !== '' ? envelopeMessage : error.message;
  const label = typeof number === 'number' ? `${code} ${number}` : code;
  return { code: label, message: text };
}

/** Formats a failure as the one line stored as the job's failedReason. */
export function failureLine(err: unknown): string {
  const { code, message } = describeFailure(err);
  return `${code}: ${message}`;
}

export interface ErrorMappingContext {
  /** The writes queue: paused on an authentication failure. */
  queue: Queue;
  /** How the whole queue is held (queue-hold.ts `rateLimit`; the queue's own when unset). */
  hold?: Pick<Queue, 'rateLimit'>;
  logger: Logger;
  /** The configured retry table (config.api.retryTable). */
  retryTable: RetryTable;
  /** Queue-wide pause when the service says 429 without Retry-After. */
  defaultRateLimitMs: number;
  /** Upper bound on a Retry-After honoured (a service asking for an hour stalls every run). */
  maxRateLimitMs?: number;
  /** The service breaker of this process: while it is open, a failure the outage explains uses no attempt. */
  breaker?: { isOpen(): boolean; readonly holdMs: number };
}

/**
 * Acts on a verdict (pausing or rate-limiting the queue) and returns what the processor must
 * throw. `final` is true when this failure ends the job for good.
 */
export async function mapError(err: unknown, ctx: ErrorMappingContext, lastAttempt: boolean): Promise<{ toThrow: Error; final: boolean }> {
  let verdict = classifyError(err, ctx.retryTable);
  if (verdict === 'retry' && ctx.breaker?.isOpen() === true && serviceVerdict(err, ctx.retryTable) === 'down') verdict = 'service-down';
  switch (verdict) {
    case 'auth':
      await ctx.queue.pause();
      ctx.logger.error(
        { queue: queueDisplayName(ctx.queue.name), failure: failureLine(err) },
        `AUTHENTICATION FAILED — queue ${queueDisplayName(ctx.queue.name)} is PAUSED, no job was failed. Fix the ` +
          `API credentials, then run \`listing-sync jobs resume\`.`,
      );
      return { toThrow: Worker.RateLimitError(), final: false };
    case 'rate-limited': {
      const maxMs = ctx.maxRateLimitMs ?? 60_000;
      const waitMs = retryAfterWithin(err, maxMs) ?? Math.min(ctx.defaultRateLimitMs, maxMs);
      await (ctx.hold ?? ctx.queue).rateLimit(Math.max(1, waitMs));
      // Why debug: the service asked for a pause and the whole queue honours it, which is normal
      // operation (the run's result counts the retries, /metrics the 429s); a line per 429 at the
      // default level buried `sync --work`'s own output under a dozen JSON lines.
      ctx.logger.debug({ queue: queueDisplayName(ctx.queue.name), waitMs }, 'service rate limit: slowing the whole queue');
      return { toThrow: Worker.RateLimitError(), final: false };
    }
    case 'service-down':
      // Why the queue's rate limit: it holds every worker of every process at once, and it expires
      // by itself if they all die; the breaker renews it while the service stays down.
      await (ctx.hold ?? ctx.queue).rateLimit(Math.max(1, ctx.breaker?.holdMs ?? ctx.defaultRateLimitMs));
      return { toThrow: Worker.RateLimitError(), final: false };
    case 'held':
      return { toThrow: Worker.RateLimitError(), final: false };
    case 'retry':
      // Why UnrecoverableError on the last attempt: the job's own `attempts` is only a ceiling
      // (enqueue.ts); the worker's LISTING_SYNC_ATTEMPTS decides when the failure is final.
      return {
        toThrow: lastAttempt ? new UnrecoverableError(failureLine(err)) : new Error(failureLine(err), { cause: err }),
        final: lastAttempt,
      };
    case 'fatal':
      return { toThrow: new UnrecoverableError(failureLine(err)), final: true };
  }
}
