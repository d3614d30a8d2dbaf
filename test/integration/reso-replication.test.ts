/**
 * The RESO Web API replication client (src/feed/reso-api) against the RESO simulator over real
 * HTTP: first runs through token expiry and revocation, nextLink on and off, a silent $top cap,
 * incremental pulls that fetch only what changed (counted by the simulator), the watermark's
 * `ge`, equal timestamps across page boundaries, Media in Order and the $expand fallback, 429
 * and 5xx handling, the budget asked once per request, sweeps, and secrets in no error or log.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { errorFields } from '../../src/shared/errors.js';
import { createLogger } from '../../src/runtime/logger.js';
import { photoUrls } from '../../src/feed/profiles/reso-values.js';
import { unlimitedBudget, type FeedRequestBudget } from '../../src/feed/reso-api/budget.js';
import { memoryBudget } from '../../src/feed/reso-api/memory-budget.js';
import { replicate, type ReplicateOptions } from '../../src/feed/reso-api/replicate.js';
import { clientCredentialsTokens, staticBearerToken, type ClientCredentialsOptions } from '../../src/feed/reso-api/token-provider.js';
import type { ReplicationResult, ResoRecord } from '../../src/feed/reso-api/types.js';
import { startResoSimulator, type ResoSimOptions, type RunningResoSimulator } from '../../src/sim/reso/server.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

/** Every simulator a test started; each is closed after its test. */
const running = new Set<RunningResoSimulator>();
afterEach(() => Promise.all([...running].map((s) => s.close())).then(() => running.clear()));

const sim = (options: ResoSimOptions = {}): Promise<RunningResoSimulator> =>
  startResoSimulator({ port: 0, ...options }).then((started) => (running.add(started), started));

/** One clock for the simulator (token lifetimes, stamps) and the token provider, moved by the test. */
class HandClock {
  private at = Date.parse('2024-05-01T12:00:00.000Z');
  readonly now = (): number => this.at;
  advance(ms: number): void {
    this.at += ms;
  }
}

const tokensOf = (s: RunningResoSimulator, extra: Partial<ClientCredentialsOptions> = {}) =>
  clientCredentialsTokens({ tokenUrl: s.tokenUrl, clientId: s.credentials.clientId, clientSecret: s.credentials.clientSecret, ...extra });

/** Short waits between repeats, so the tests do not sleep for seconds. */
const QUICK = { backoff: { baseMs: 1, maxMs: 5 } } as const;

type Options = Partial<ReplicateOptions> & { tokens?: ReplicateOptions['tokens'] };

function startRun(s: RunningResoSimulator, options: Options = {}) {
  return replicate({ propertyUrl: s.propertyUrl, tokens: options.tokens ?? tokensOf(s), ...QUICK, ...options });
}

/** Runs a replication to its end: every record, the pages' sizes and the result. */
async function pull(
  s: RunningResoSimulator,
  options: Options = {},
): Promise<{ rows: ResoRecord[]; sizes: number[]; result: ReplicationResult }> {
  const run = startRun(s, options);
  const rows: ResoRecord[] = [];
  const sizes: number[] = [];
  for await (const page of run.pages) {
    rows.push(...page);
    sizes.push(page.length);
  }
  return { rows, sizes, result: run.result() };
}

/** The error a run halts with, and its result at that moment. */
async function halt(
  s: RunningResoSimulator,
  options: Options = {},
): Promise<{ error: unknown; result: ReplicationResult; rows: ResoRecord[] }> {
  const run = startRun(s, options);
  const rows: ResoRecord[] = [];
  try {
    for await (const page of run.pages) rows.push(...page);
  } catch (error) {
    return { error, result: run.result(), rows };
  }
  throw new Error('the run did not halt');
}

const keysOf = (rows: readonly ResoRecord[]): unknown[] => rows.map((row) => row.ListingKey);
/** The simulator's records in replication order (ModificationTimestamp, then ListingKey). */
const serverOrder = (s: RunningResoSimulator): string[] =>
  s.state.records
    .list()
    .map((record) => record.property)
    .sort((a, b) => a.ModificationTimestamp.localeCompare(b.ModificationTimestamp) || a.ListingKey.localeCompare(b.ListingKey))
    .map((property) => property.ListingKey);
/** The query strings the simulator received, decoded. */
const queriesSeen = (s: RunningResoSimulator): string[] => s.state.requests().map((entry) => decodeURIComponent(entry.url));

describe('first run', () => {
  it('reads every record in (ModificationTimestamp, ListingKey) order through a token that ends and one revoked early', async () => {
    const clock = new HandClock();
    const s = await sim({ now: clock.now, tokenTtlSeconds: 60, maxTop: 10, records: 45 });
    const run = startRun(s, { tokens: tokensOf(s, { now: clock.now, renewMarginMs: 10_000 }), pageSize: 10 });
    const rows: ResoRecord[] = [];
    for await (const page of run.pages) {
      rows.push(...page);
      clock.advance(25_000);
      // The 3rd page (t=50 s) went out with a token renewed 10 s before the first one's end;
      // revoke it: the 4th page's request gets a 401, renews and is repeated.
      if (rows.length === 30) s.state.revokeTokens();
    }
    expect(keysOf(rows)).toEqual(serverOrder(s));
    expect(run.result()).toMatchObject({ complete: true, records: 45, requests: 6, pagedBy: 'nextLink', media: 'expand' });
    // Renewed ahead of expiry (no 401 for it), and once on the revocation's 401.
    expect(s.state.counters()).toMatchObject({ tokensIssued: 3, unauthorized: 1, requests: 6 });
  });

  it('reads every record of a timestamp shared across page boundaries once, with and without nextLink', async () => {
    const s = await sim({ maxTop: 5 });
    const same = '2024-05-01T10:00:00.000Z';
    s.state.records.seed({ count: 3, startAt: '2024-05-01T09:00:00.000Z' });
    const alike = s.state.records.seed({ count: 9, timestamp: same });
    s.state.records.seed({ count: 2, startAt: '2024-05-01T11:00:00.000Z' });
    for (const nextLink of [true, false]) {
      s.state.configure({ nextLink });
      s.state.reset();
      const { rows, result } = await pull(s, { pageSize: 5 });
      expect(keysOf(rows)).toEqual(serverOrder(s));
      expect(keysOf(rows.filter((row) => row.ModificationTimestamp === same))).toEqual(alike);
      expect(result).toMatchObject({ complete: true, requests: 3, maxTimestamp: '2024-05-01T11:01:00.000Z' });
    }
    // Without nextLink the pages continue by key inside the shared stamp, past the records read at it.
    const after = (key: string | undefined) =>
      `$filter=(ModificationTimestamp gt ${same}) or (ModificationTimestamp eq ${same} and ListingKey gt '${key}')&$orderby=ModificationTimestamp,ListingKey&$expand=Media&$count=true`;
    expect(queriesSeen(s).slice(1)).toEqual([expect.stringContaining(after(alike[1])), expect.stringContaining(after(alike[6]))]);
    expect(queriesSeen(s).some((query) => query.includes('$top') || query.includes('$skip'))).toBe(false);
  });

  it('misses no record when one already read changes during the pull (paging by stamp, not by position)', async () => {
    const s = await sim({ maxTop: 5, records: 20, nextLink: false });
    const all = serverOrder(s);
    const run = startRun(s, { pageSize: 5 });
    const rows: ResoRecord[] = [];
    for await (const page of run.pages) {
      rows.push(...page);
      // The second record moves to the end of the order: counted by position, every later record would shift.
      if (rows.length === 5) s.state.records.modify({ keys: [all[1] ?? ''] });
    }
    expect(new Set(keysOf(rows))).toEqual(new Set(all));
    // Its new version is newer than the watermark: the next pull brings it.
    const next = await pull(s, { watermark: run.result().maxTimestamp ?? '' });
    expect(keysOf(next.rows)).toContain(all[1]);
  });
});

describe('incremental pulls', () => {
  it('fetch only what changed since the watermark (and what is stamped at it: ge, not gt)', async () => {
    const s = await sim({ records: 50 });
    const first = await pull(s);
    const watermark = first.result.maxTimestamp ?? '';
    expect(watermark).toBe(first.rows.at(-1)?.ModificationTimestamp);

    const order = serverOrder(s);
    const changed = [order[3] ?? '', order[17] ?? '', order[40] ?? ''];
    changed.forEach((key, index) =>
      s.state.records.modify({ keys: [key], timestamp: new Date(Date.parse(watermark) + 1000 * (index + 1)).toISOString() }),
    );
    s.state.reset();
    const { rows, result } = await pull(s, { watermark });
    expect(keysOf(rows)).toEqual([order.at(-1), ...changed]);
    // One page of Property, and one request to Media for photos changed alone since the watermark.
    expect(s.state.counters()).toMatchObject({ requests: 2, recordsServed: 4 });
    expect(queriesSeen(s)[1]).toMatch(/^\/odata\/Media\?\$filter=ModificationTimestamp ge /);
    expect(result).toMatchObject({ complete: true, records: 4, maxTimestamp: new Date(Date.parse(watermark) + 3000).toISOString() });
  });

  it('pull again a change stamped exactly at the watermark; the overlap starts that much earlier', async () => {
    const s = await sim({ records: 10 });
    const { result } = await pull(s);
    const watermark = result.maxTimestamp ?? '';
    const [old = ''] = serverOrder(s);
    const before = s.state.records.get(old)?.property.ListPrice ?? 0;
    s.state.records.modify({ keys: [old], timestamp: watermark });
    s.state.reset();
    const atMark = await pull(s, { watermark });
    expect(atMark.rows.find((row) => row.ListingKey === old)).toMatchObject({ ListPrice: before + 1000, ModificationTimestamp: watermark });

    s.state.reset();
    const overlapped = await pull(s, { watermark, overlapMs: 60_000 });
    expect(queriesSeen(s)[0]).toContain(`ModificationTimestamp ge ${new Date(Date.parse(watermark) - 60_000).toISOString()}`);
    expect(overlapped.rows.length).toBe(atMark.rows.length + 1);
  });
});

describe('Media', () => {
  const photosInOrder = (s: RunningResoSimulator, key: unknown): string[] =>
    [...(s.state.records.get(String(key))?.media ?? [])].sort((a, b) => a.Order - b.Order).map((photo) => photo.MediaURL);

  it('attaches expanded photos in Order, and reads them from the Media resource when $expand is refused', async () => {
    const s = await sim({ seed: 3 });
    s.state.records.seed({ count: 12, photos: 6 });
    s.state.records.seed({ count: 1, photos: 0 });
    const expanded = await pull(s, { pageSize: 5 });
    expect(expanded.result.media).toBe('expand');
    for (const row of expanded.rows) {
      expect((row.Media as Array<{ Order: number }>).map((photo) => photo.Order)).toEqual(
        photosInOrder(s, row.ListingKey).map((_, i) => i + 1),
      );
      expect(photoUrls(row.Media) ?? []).toEqual(photosInOrder(s, row.ListingKey));
    }

    s.state.configure({ expandMedia: false });
    s.state.reset();
    const fallback = await pull(s, { pageSize: 5 });
    expect(fallback.result).toMatchObject({ complete: true, media: 'resource', records: 13 });
    expect(keysOf(fallback.rows)).toEqual(keysOf(expanded.rows));
    for (const row of fallback.rows) expect(photoUrls(row.Media) ?? []).toEqual(photosInOrder(s, row.ListingKey));
    expect(fallback.rows.at(-1)?.Media).toEqual([]);
    expect(s.state.counters()).toMatchObject({ badRequests: 1, mediaServed: 72, recordsServed: 13 });
    expect(queriesSeen(s).filter((query) => query.includes('/odata/Media?$filter=ResourceRecordKey in ('))).not.toHaveLength(0);
  });
});

describe('429, 5xx and the budget', () => {
  it('waits as Retry-After asks after a 429, then goes on', async () => {
    const s = await sim({ records: 3, faults: { nextStatuses: [429], retryAfterSeconds: 1 } });
    const started = Date.now();
    const { result } = await pull(s);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result).toMatchObject({ complete: true, records: 3, requests: 2 });
  });

  it('halts with ErrorCode.FEED_RATE_LIMITED after 3 429s in a row, before a suspension', async () => {
    const s = await sim({ records: 30, maxTop: 10, faults: { nextStatuses: [429, 429, 429], retryAfterSeconds: 0 } });
    const { error, result } = await halt(s, { pageSize: 10 });
    expect(errorFields(error).code).toBe(ErrorCode.FEED_RATE_LIMITED);
    expect(result).toMatchObject({ complete: false, records: 0, requests: 3 });
    expect(s.state.counters().requests).toBe(3);
  });

  it('repeats a request after 5xx; too many in a row fail with FEED_SERVER_ERROR', async () => {
    const s = await sim({ records: 5, faults: { nextStatuses: [503, 500, 502], retryAfterSeconds: 0 } });
    expect((await pull(s)).result).toMatchObject({ complete: true, records: 5, requests: 4 });
    s.state.configure({ faults: { nextStatuses: [503, 503, 503], retryAfterSeconds: 0 } });
    const { error } = await halt(s, { serverErrorRetries: 2 });
    expect(errorFields(error)).toMatchObject({ code: ErrorCode.FEED_SERVER_ERROR, details: { attempts: 3, last: 'HTTP 503' } });
  });

  it('asks the budget once per request to the feed and tells it the bytes of every answer', async () => {
    const s = await sim({ records: 25, maxTop: 10, expandMedia: false, faults: { nextStatuses: [429, 503], retryAfterSeconds: 0 } });
    const counted = { acquired: 0, bytes: 0 };
    const inner = unlimitedBudget();
    const budget: FeedRequestBudget = {
      acquire: async (options) => {
        counted.acquired += 1;
        await inner.acquire(options);
      },
      addBytes: async (bytes) => {
        counted.bytes += bytes;
        await inner.addBytes(bytes);
      },
    };
    const run = startRun(s, { budget, pageSize: 10 });
    for await (const page of run.pages) if (page.length === 10) s.state.revokeTokens();
    const served = s.state.counters();
    expect(served.tooManyRequests + served.serverErrors + served.unauthorized + served.badRequests).toBeGreaterThanOrEqual(4);
    expect(counted).toEqual({ acquired: served.requests, bytes: served.bytesServed });
    expect(run.result()).toMatchObject({ complete: true, requests: served.requests, bytes: served.bytesServed });
  });

  it('stops before the budget runs out (ErrorCode.BUDGET_EXHAUSTED), and the next run resumes from the watermark', async () => {
    const s = await sim({ records: 50, maxTop: 10 });
    const budget = memoryBudget({ perDay: 3 });
    const { error, result, rows } = await halt(s, { budget, budgetMaxWaitMs: 1000, pageSize: 10 });
    expect(errorFields(error)).toMatchObject({ code: ErrorCode.BUDGET_EXHAUSTED, details: { window: 'perDay' } });
    expect(result).toMatchObject({ complete: false, records: 30, requests: 3, maxTimestamp: rows.at(-1)?.ModificationTimestamp });
    expect(s.state.counters().requests).toBe(3);

    const rest = await pull(s, { watermark: result.maxTimestamp ?? '', pageSize: 10 });
    expect(new Set([...keysOf(rows), ...keysOf(rest.rows)])).toEqual(new Set(serverOrder(s)));
  });
});

describe('sweep', () => {
  it('reads every key with the key fields only; an interrupted or halted sweep is not complete', async () => {
    const s = await sim({ records: 30, maxTop: 10 });
    const { rows, result } = await pull(s, { sweep: true, pageSize: 10 });
    expect(result).toMatchObject({ complete: true, records: 30, media: 'none' });
    expect(keysOf(rows)).toEqual(serverOrder(s));
    for (const row of rows) expect(Object.keys(row)).toEqual(['ListingKey', 'ListingId', 'ModificationTimestamp']);

    const stop = new AbortController();
    const run = startRun(s, { sweep: true, pageSize: 10, signal: stop.signal });
    await expect(
      (async () => {
        for await (const page of run.pages) if (page.length > 0) stop.abort();
      })(),
    ).rejects.toMatchObject({ code: 'FEED_INTERRUPTED' });
    expect(run.result()).toMatchObject({ complete: false, records: 10 });

    s.state.configure({ faults: { nextStatuses: [429, 429, 429], retryAfterSeconds: 0 } });
    expect((await halt(s, { sweep: true })).result.complete).toBe(false);
  });
});

describe('credentials', () => {
  it('sends client credentials in the form body with a scope when told; takes a static token, which a 401 ends', async () => {
    const s = await sim({ records: 4 });
    expect((await pull(s, { tokens: tokensOf(s, { credentialsIn: 'body', scope: 'api' }) })).result.complete).toBe(true);

    const provider = tokensOf(s);
    const header = await provider.authorization();
    const tokens = staticBearerToken(header.slice('Bearer '.length));
    expect((await pull(s, { tokens })).result.records).toBe(4);
    s.state.revokeTokens();
    expect(errorFields((await halt(s, { tokens })).error).code).toBe(ErrorCode.FEED_AUTH_FAILED);
  });

  it('puts no secret or token in any error or log line', async () => {
    const secret = 'sim-secret-7f3a9c';
    const s = await sim({ records: 30, maxTop: 10, credentials: { clientSecret: secret } });
    const lines: string[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    const token = (await tokensOf(s).authorization()).slice('Bearer '.length);
    const errors = [
      (await halt(s, { tokens: tokensOf(s, { clientSecret: 'not-the-secret-1234' }), logger })).error,
      (await halt(s, { tokens: tokensOf(s, { clientSecret: secret, tokenUrl: `${s.baseUrl}/nowhere` }), logger })).error,
      (
        await halt(s, {
          tokens: clientCredentialsTokens({ tokenUrl: 'http://127.0.0.1:1/token', clientId: 'id', clientSecret: secret }),
          logger,
          serverErrorRetries: 0,
        })
      ).error,
      (await halt(s, { propertyUrl: `${s.serviceUrl}/Nope`, tokens: staticBearerToken(token), logger })).error,
    ];
    s.state.configure({ faults: { nextStatuses: [429, 503, 429, 429, 429], retryAfterSeconds: 0 } });
    errors.push((await halt(s, { tokens: tokensOf(s, { clientSecret: secret }), logger })).error);
    s.state.revokeTokens();
    errors.push((await halt(s, { tokens: staticBearerToken(token), logger })).error);
    expect(errors.map((error) => errorFields(error).code)).toEqual([
      ErrorCode.FEED_AUTH_FAILED,
      ErrorCode.FEED_AUTH_FAILED,
      ErrorCode.FEED_SERVER_ERROR,
      'FEED_UNREADABLE',
      ErrorCode.FEED_RATE_LIMITED,
      ErrorCode.FEED_AUTH_FAILED,
    ]);
    expect(lines.length).toBeGreaterThan(0);
    for (const error of errors) {
      const seen = [String(error), JSON.stringify(error), JSON.stringify(errorFields(error).details), String((error as Error).cause)].join(
        '\n',
      );
      for (const value of [secret, 'not-the-secret-1234', token]) expect(seen).not.toContain(value);
    }
    for (const value of [secret, 'not-the-secret-1234', token]) expect(lines.join('\n')).not.toContain(value);
  });
});
