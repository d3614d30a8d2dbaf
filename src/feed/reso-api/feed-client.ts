/**
 * GETs of a feed server's JSON with the policies a suspension-prone MLS needs: the budget is
 * asked before every request (and told the bytes of every answer), a 401 renews the token and
 * repeats the request once, a 429 waits as Retry-After asks (capped) and stops the run after a
 * few in a row, a 5xx or a broken connection is repeated a bounded number of times with jittered
 * waits. Everything else is final.
 */
import { sleep as abortableSleep } from '../../net/abortable-sleep.js';
import { retryRead } from '../../net/retry-read.js';
import type { Logger } from '../../runtime/logger.js';
import { backoffDelay, type BackoffSettings } from '../../net/backoff.js';
import { retryAfterWithin } from '../../net/retry-after.js';
import { feedInterrupted, feedUnreadable } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { unlimitedBudget, type FeedRequestBudget } from './budget.js';
import { exchange, ExchangeFailure, type Exchange } from './http-exchange.js';
import { authFailed, rateLimited, refused, serverFailed } from './reso-errors.js';
import type { TokenProvider } from './token-provider.js';

export interface FeedClientOptions {
  tokens: TokenProvider;
  /** Asked before every request to the feed server (default: unlimited). Token requests are not counted: MLS budgets count the data API. */
  budget?: FeedRequestBudget;
  /** The longest wait for the budget before it rejects with BUDGET_EXHAUSTED (default 10 min). */
  budgetMaxWaitMs?: number;
  /** Deadline of the headers and of each pause in a body (default 60 s). */
  timeoutMs?: number;
  /** Largest answer read (default 256 MiB). */
  maxResponseBytes?: number;
  /** 429s in a row that stop the run with FEED_RATE_LIMITED (default 3). */
  maxConsecutive429?: number;
  /** Cap of a Retry-After wait (default 2 min). */
  maxRetryAfterMs?: number;
  /** Repeats of one request after a 5xx or a broken connection (default 4). */
  serverErrorRetries?: number;
  /** Waits between repeats when the server names none (default 1 s doubling to 30 s, full jitter). */
  backoff?: BackoffSettings;
  signal?: AbortSignal;
  logger?: Logger;
  /** For tests: the jitter's random source and the sleep. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface TextRequest {
  accept: string;
  maxPageSize?: number;
  maxBytes?: number;
  tooLargeHint?: string;
}

const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);

/** Waits between repeats when the server names none: 1 s doubling to 30 s, full jitter. */
const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 1000, maxMs: 30_000 };

/** A failure worth repeating, as one try reports it to the retry loop. */
class Repeat extends Error {
  constructor(
    readonly kind: 'transient' | 'too-many' | 'renewed',
    /** What failed, for the log and the final error ("HTTP 503", "connection failed (…)"). */
    readonly last: string,
    /** The wait the server asked for (Retry-After), capped; undefined when it named none. */
    readonly askedMs?: number,
  ) {
    super(last);
  }
}

/** The server's own words from an OData (`error.message`) or OAuth (`error_description`) error body. */
function serverMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; error_description?: unknown };
    const message = typeof body.error === 'object' ? body.error.message : body.error_description;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

export class FeedClient {
  private sent = 0;
  private received = 0;
  private tooManyInARow = 0;
  private readonly budget: FeedRequestBudget;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: FeedClientOptions) {
    this.budget = options.budget ?? unlimitedBudget();
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** Requests sent to the feed server (every attempt, refused ones too). */
  get requests(): number {
    return this.sent;
  }

  /** Bytes of every answer received. */
  get bytes(): number {
    return this.received;
  }

  /** GETs `url` and parses its JSON, through the policies above; `maxPageSize` is asked with Prefer: odata.maxpagesize. */
  async getJson(url: string, request: { maxPageSize?: number } = {}): Promise<unknown> {
    return this.parse(await this.getText(url, { accept: 'application/json', ...request }), displaySource(url));
  }

  /**
   * GETs `url` through the policies above and returns its body (the `$metadata` document is XML);
   * `maxBytes` caps this answer (default the client's), `tooLargeHint` is the next step when it is over.
   */
  async getText(url: string, request: TextRequest): Promise<string> {
    const where = displaySource(url);
    const { backoff = DEFAULT_BACKOFF, serverErrorRetries = 4, maxConsecutive429 = 3 } = this.options;
    let failures = 0;
    let renewed = false;
    const attempt = async (): Promise<string> => {
      const outcome = await this.attempt(url, where, request, renewed);
      if (outcome instanceof Repeat && outcome.kind === 'renewed') renewed = true;
      if (outcome instanceof Repeat) throw outcome;
      return outcome;
    };
    // Why each kind has its own count: a 5xx or a broken connection is repeated a few times per
    // request, a 429 is counted in a row across requests (the server pacing this client), and a
    // token the server refused is renewed once.
    const mayRepeat = (error: unknown): boolean => {
      if (!(error instanceof Repeat)) return false;
      if (error.kind === 'renewed') return true;
      if (error.kind === 'too-many') return this.tooManyInARow < maxConsecutive429;
      failures += 1;
      return failures <= serverErrorRetries;
    };
    const waitMs = (error: unknown): number => {
      if (!(error instanceof Repeat) || error.kind === 'renewed') return 0;
      const inARow = error.kind === 'too-many' ? this.tooManyInARow : failures;
      const ms = error.askedMs ?? backoffDelay(inARow, backoff, this.options.random);
      if (error.kind === 'too-many')
        // Why info, not warn: a 429 with Retry-After is the server pacing the client, and the run goes on
        // as asked; a run it halts says so in its one error line. A warning per 429 was noise on stderr.
        this.options.logger?.info({ where, waitMs: ms, inARow }, 'feed server answered 429; waiting before repeating');
      else
        this.options.logger?.warn({ where, last: error.last, waitMs: ms, attempt: failures }, 'feed server failed; repeating the request');
      return ms;
    };
    try {
      return await retryRead(attempt, {
        attempts: Number.POSITIVE_INFINITY,
        ...backoff,
        mayRetry: mayRepeat,
        askedWaitMs: waitMs,
        ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
        sleep: this.sleep,
      });
    } catch (thrown) {
      if (this.aborted()) throw feedInterrupted(where);
      if (!(thrown instanceof Repeat)) throw thrown;
      // Why stop after a few 429s in a row: an MLS that keeps answering 429 is counting a budget the
      // client overran, and MLS Grid suspends a credential that keeps going; a later run resumes.
      if (thrown.kind === 'too-many') throw rateLimited(where, this.tooManyInARow);
      throw serverFailed(where, failures, thrown.last);
    }
  }

  /** One try: the body, or what to do about a failure worth repeating (a Repeat). Final failures are thrown. */
  private async attempt(
    url: string,
    where: string,
    request: { maxPageSize?: number; accept: string },
    renewed: boolean,
  ): Promise<string | Repeat> {
    // Why the budget before the token: a long budget wait would outlive a token fetched first;
    // a slot spent when the token request then fails only errs on the safe side.
    await this.acquire(where);
    let authorization: string;
    try {
      authorization = await this.options.tokens.authorization(this.options.signal);
    } catch (thrown) {
      const retryable = typeof thrown === 'object' && thrown !== null && (thrown as { retryable?: unknown }).retryable === true;
      if (!retryable) throw thrown;
      return new Repeat('transient', 'token request failed');
    }
    const answer = await this.send(url, authorization, where, request);
    if (typeof answer === 'string') return new Repeat('transient', answer);
    if (answer.status !== 429) this.tooManyInARow = 0;
    if (answer.status >= 200 && answer.status < 300) return answer.text;
    if (answer.status === 401) {
      if (!renewed && this.options.tokens.rejected(authorization)) return new Repeat('renewed', 'HTTP 401');
      throw authFailed(
        where,
        'the server refused the token (HTTP 401)',
        'Check the feed credentials and that they are licensed for this feed.',
      );
    }
    const askedMs = retryAfterWithin(answer.headers['retry-after'], this.options.maxRetryAfterMs ?? 120_000, Date.now());
    if (answer.status === 429) {
      this.tooManyInARow += 1;
      return new Repeat('too-many', 'HTTP 429', askedMs);
    }
    if (TRANSIENT_STATUSES.has(answer.status)) return new Repeat('transient', `HTTP ${answer.status}`, askedMs);
    throw refused(where, answer.status, this.quote(answer.text));
  }

  private async acquire(where: string): Promise<void> {
    const { signal } = this.options;
    if (this.aborted()) throw feedInterrupted(where);
    try {
      await this.budget.acquire({ maxWaitMs: this.options.budgetMaxWaitMs ?? 600_000, ...(signal === undefined ? {} : { signal }) });
    } catch (thrown) {
      if (this.aborted()) throw feedInterrupted(where);
      throw thrown;
    }
  }

  /** One exchange; a string says why it failed on the way (worth repeating). */
  private async send(
    url: string,
    authorization: string,
    where: string,
    { maxPageSize, accept, maxBytes, tooLargeHint }: TextRequest,
  ): Promise<Exchange | string> {
    let bytes = 0;
    try {
      return await exchange({
        method: 'GET',
        url,
        headers: {
          accept,
          authorization,
          // The protocol versions this client speaks (OData 4.01 Part 1 §8.2.6, §8.2.7).
          'odata-version': '4.0',
          'odata-maxversion': '4.01',
          ...(maxPageSize === undefined ? {} : { prefer: `odata.maxpagesize=${maxPageSize}` }),
        },
        timeoutMs: this.options.timeoutMs ?? 60_000,
        maxBytes: maxBytes ?? this.options.maxResponseBytes ?? 256 * 1024 * 1024,
        ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
        onBytes: (count) => (bytes += count),
      });
    } catch (thrown) {
      if (this.aborted()) throw feedInterrupted(where);
      if (!(thrown instanceof ExchangeFailure)) throw thrown;
      if (thrown.reason === 'too-large')
        throw feedUnreadable(`an answer is ${thrown.detail}`, where, tooLargeHint ?? 'Ask for smaller pages (--feed-page-size).');
      return `connection failed (${thrown.detail})`;
    } finally {
      this.sent += 1;
      this.received += bytes;
      await this.budget.addBytes(bytes);
    }
  }

  private parse(text: string, where: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw feedUnreadable('an answer is not JSON', where, 'Check that the URL names an OData resource.');
    }
  }

  private quote(text: string): string | undefined {
    const message = serverMessage(text);
    return message === undefined ? undefined : this.options.tokens.redact(message);
  }

  private aborted(): boolean {
    return this.options.signal?.aborted === true;
  }
}
