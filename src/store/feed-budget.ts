/**
 * The request budget of one feed server credential (an MLS's RESO Web API: MLS Grid, Trestle,
 * Bridge…), held in Redis so that every process using the credential shares it. A server that
 * sees more requests in a second, an hour or a day than it allows suspends the client, so the
 * budget is enforced before a request is sent, never after a 429.
 *
 * `acquire` runs one atomic script (feed-budget-lua.ts) that checks every window on Redis's clock
 * and either records the request or returns the moment the binding window frees a slot; the
 * caller sleeps until exactly then (abortable, no polling). A wait longer than the caller accepts
 * (a full daily window) rejects at once with BUDGET_EXHAUSTED, so a run can stop cleanly and the
 * next one resume from its watermark.
 *
 * Margin policy (why each window is enforced over its span + `marginMs`, default 250 ms): the
 * request is recorded when granted, but reaches the server later, after the reply from Redis, the
 * event loop, maybe a TLS handshake on a fresh connection or a GC pause. A request recorded first
 * can arrive after one recorded later. If every request arrives within J of its grant, any window
 * of length T on the server's clock holds only requests granted within a window of length T + J;
 * so allowing at most N grants in every T + margin window keeps the server at ≤ N per T as long as
 * the jitter stays under the margin. 250 ms covers a TLS handshake and ordinary jitter on a WAN at
 * the cost of a 2/s budget running at 1.6/s; for hour and day windows it costs nothing measurable.
 * Suspension of a credential costs far more than the 20%. Windows are sliding (any T-long interval,
 * not calendar seconds), which also satisfies a server that counts in fixed windows.
 *
 * One budget id must always be used with the same windows: the request log is trimmed to the
 * longest window of the caller that records.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RedisClient } from './redis-client.js';
import { sleep } from '../net/abortable-sleep.js';
import { ListingSyncError } from '../shared/errors.js';
import { BUDGET_ADD_BYTES, BUDGET_CHECK } from './feed-budget-lua.js';
import type { StoreKeys } from './keys.js';
import { runLua } from './lua.js';
import { ErrorCode } from '../shared/error-codes.js';

/** The limits of one budget; every window given is enforced, at least one is required. */
export interface FeedBudgetWindows {
  perSecond?: number;
  perHour?: number;
  perDay?: number;
  /** Response bytes per hour (counted by `addBytes`). */
  bytesPerHour?: number;
}

export type FeedBudgetWindow = keyof FeedBudgetWindows;
type RequestWindow = Exclude<FeedBudgetWindow, 'bytesPerHour'>;

export interface FeedBudgetOptions {
  /** Added to every window's span (see the margin policy above); default DEFAULT_BUDGET_MARGIN_MS. */
  marginMs?: number;
  /**
   * Window spans in ms instead of 1 s / 1 h / 1 d / 1 h: for tests, so an hour's or a day's
   * behaviour runs in seconds through the same script. Production leaves it unset.
   */
  spansMs?: Partial<Record<FeedBudgetWindow, number>>;
}

export const DEFAULT_BUDGET_MARGIN_MS = 250;

const HOUR_MS = 3_600_000;
const SPANS_MS: Readonly<Record<FeedBudgetWindow, number>> = {
  perSecond: 1000,
  perHour: HOUR_MS,
  perDay: 24 * HOUR_MS,
  bytesPerHour: HOUR_MS,
};
const REQUEST_WINDOWS: readonly RequestWindow[] = ['perSecond', 'perHour', 'perDay'];
/** Why 60 buckets: a sliding hour then overcounts by at most one minute's bytes, in at most 61 hash fields. */
const BYTE_BUCKETS = 60;

/** A request the budget let through. */
export interface FeedGrant {
  /** Redis time (epoch µs) at which the request was recorded. */
  grantedAtUs: number;
}

/** When the budget lets the next request through, if not now. */
export interface FeedBudgetExhausted {
  window: FeedBudgetWindow;
  /** Redis time (epoch ms) when the next request fits. */
  retryAtMs: number;
}

/** What `sources show` prints about a budget. */
export interface FeedBudgetUsage {
  /** Redis time (epoch ms) of the reading. */
  readAtMs: number;
  marginMs: number;
  /** Requests recorded in each request window (over its span + margin, as enforced). */
  requests: Array<{ window: RequestWindow; limit: number; used: number }>;
  /** Response bytes counted in the last hour (+ margin; whole minutes, so it may overcount by < 1 min). */
  bytesThisHour: number;
  bytesPerHour?: number;
  /** Set when the next request would have to wait. */
  exhausted?: FeedBudgetExhausted;
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new ListingSyncError(ErrorCode.INVALID_INPUT, `${what} must be a positive integer, got ${value}`);
  return value;
}

/** A budget id goes into key names: a stable hash or slug, never a secret or a URL. */
const BUDGET_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Epoch µs → ms, rounded up (a retry time must never be early). */
const usToMs = (us: number): number => Math.ceil(us / 1000);

export class FeedBudget {
  private readonly requestWindows: Array<{ window: RequestWindow; limit: number; spanUs: number }>;
  private readonly bytesPerHour: number | undefined;
  private readonly bytesSpanUs: number;
  private readonly marginMs: number;
  private readonly requestKey: string;
  private readonly bytesKey: string;

  constructor(
    private readonly redis: RedisClient,
    keys: StoreKeys,
    readonly id: string,
    windows: FeedBudgetWindows,
    options: FeedBudgetOptions = {},
  ) {
    if (!BUDGET_ID.test(id))
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, 'a feed budget id must be 1-128 of A-Z a-z 0-9 . _ - (a hash, not a secret)');
    const spanUs = (window: FeedBudgetWindow): number =>
      positiveInteger(options.spansMs?.[window] ?? SPANS_MS[window], `${window} span`) * 1000;
    this.requestWindows = REQUEST_WINDOWS.flatMap((window) => {
      const limit = windows[window];
      return limit === undefined ? [] : [{ window, limit: positiveInteger(limit, window), spanUs: spanUs(window) }];
    });
    this.bytesSpanUs = spanUs('bytesPerHour');
    this.bytesPerHour = windows.bytesPerHour === undefined ? undefined : positiveInteger(windows.bytesPerHour, 'bytesPerHour');
    if (this.requestWindows.length === 0 && this.bytesPerHour === undefined)
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, 'a feed budget needs at least one window');
    this.marginMs = options.marginMs ?? DEFAULT_BUDGET_MARGIN_MS;
    if (!Number.isSafeInteger(this.marginMs) || this.marginMs < 0)
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, `marginMs must be a non-negative integer, got ${this.marginMs}`);
    this.requestKey = keys.feedBudgetRequests(id);
    this.bytesKey = keys.feedBudgetBytes(id);
  }

  /**
   * Waits until one more request fits every window (across all processes), then counts it.
   * Rejects with BUDGET_EXHAUSTED (details: { window, retryAtMs }) as soon as the total wait would
   * exceed `maxWaitMs`, and with ABORTED promptly when `signal` aborts.
   */
  async acquire(options: { maxWaitMs: number; signal?: AbortSignal }): Promise<void> {
    await this.acquireGrant(options);
  }

  /** `acquire`, resolving with the Redis time the request was recorded at (for logs and tests). */
  async acquireGrant(options: { maxWaitMs: number; signal?: AbortSignal }): Promise<FeedGrant> {
    const started = performance.now();
    for (;;) {
      this.throwIfAborted(options.signal);
      const reply = (await this.check('take')) as [number, number, number?, string?];
      if (reply[0] === 1) return { grantedAtUs: reply[1] };
      const [, nowUs, retryAtUs = nowUs, window = 'perSecond'] = reply;
      // Why ms rounded up and at least 1: waking before the slot frees would only cost another
      // round trip and a second sleep; never a tight loop.
      const waitMs = Math.max(1, usToMs(retryAtUs - nowUs));
      if (performance.now() - started + waitMs > options.maxWaitMs) {
        const details: FeedBudgetExhausted = { window: window as FeedBudgetWindow, retryAtMs: usToMs(retryAtUs) };
        throw new ListingSyncError(
          ErrorCode.BUDGET_EXHAUSTED,
          `feed request budget ${this.id}: ${window} is used up; the next request fits at ${new Date(details.retryAtMs).toISOString()}`,
          { details: { ...details } },
        );
      }
      await sleep(waitMs, options.signal);
    }
  }

  /** Counts the bytes of a response received (for the bytes-per-hour window). */
  async addBytes(bytes: number): Promise<void> {
    if (!Number.isSafeInteger(bytes) || bytes < 0)
      throw new ListingSyncError(ErrorCode.INVALID_INPUT, `bytes must be a non-negative integer, got ${bytes}`);
    if (bytes === 0) return;
    const spanUs = this.bytesSpanUs + this.marginMs * 1000;
    await runLua(this.redis, BUDGET_ADD_BYTES, [this.bytesKey], [bytes, spanUs, Math.ceil(this.bytesSpanUs / BYTE_BUCKETS)]);
  }

  /** Whether the bytes-per-hour window holds less than its limit now (true without one). Records nothing. */
  async bytesRoom(): Promise<boolean> {
    if (this.bytesPerHour === undefined) return true;
    return (await this.usage()).bytesThisHour < this.bytesPerHour;
  }

  /** Counts per window, bytes this hour and whether (until when) the next request must wait. Records nothing. */
  async usage(): Promise<FeedBudgetUsage> {
    const reply = (await this.check('peek')) as [number, number, string, number, ...number[]];
    const [nowUs, retryAtUs, window, bytes, ...counts] = reply;
    const usage: FeedBudgetUsage = {
      readAtMs: Math.floor(nowUs / 1000),
      marginMs: this.marginMs,
      requests: this.requestWindows.map(({ window, limit }, i) => ({ window, limit, used: counts[i] ?? 0 })),
      bytesThisHour: bytes,
    };
    if (this.bytesPerHour !== undefined) usage.bytesPerHour = this.bytesPerHour;
    if (retryAtUs > 0) usage.exhausted = { window: window as FeedBudgetWindow, retryAtMs: usToMs(retryAtUs) };
    return usage;
  }

  private async check(mode: 'take' | 'peek'): Promise<unknown> {
    const nonce = randomBytes(6).toString('hex');
    const bucketUs = Math.ceil(this.bytesSpanUs / BYTE_BUCKETS);
    const args: Array<string | number> = [mode, nonce, this.marginMs * 1000, this.bytesPerHour ?? 0, this.bytesSpanUs, bucketUs];
    for (const { window, limit, spanUs } of this.requestWindows) args.push(window, spanUs, limit);
    return runLua(this.redis, BUDGET_CHECK, [this.requestKey, this.bytesKey], args);
  }

  private throwIfAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted)
      throw new ListingSyncError(ErrorCode.ABORTED, `stopped while waiting for feed request budget ${this.id}`, { cause: signal.reason });
  }
}
