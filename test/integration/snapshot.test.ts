import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { DEFAULT_RETRY_TABLE, mergeRetryTable, retryTableOverrideSchema } from '../../src/api/retry-policy.js';
import type { RunningSimulator, SimOptions } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { readRemoteSnapshot } from '../../src/sync/snapshot.js';
import { remoteListingsOf } from '../../src/domain/snapshot/remote.js';
import { startTestSim } from '../helpers/sim.js';

const BOT = 'bot-snap';
let sim: RunningSimulator | undefined;
let api: ApiClient | undefined;

afterEach(async () => {
  await api?.close();
  await sim?.close();
  sim = undefined;
  api = undefined;
});

async function setup(
  count: number,
  faults: Parameters<RunningSimulator['state']['setFaults']>[0] = {},
  options: SimOptions = {},
): Promise<{ sim: RunningSimulator; api: ApiClient }> {
  sim = await startTestSim({
    ...options,
    chatbots: [BOT],
    listings: { [BOT]: Array.from({ length: count }, (_, i) => sampleListing(i, { SerialNumber: BOT })) },
  });
  sim.state.setFaults(faults);
  api = createApiClient({ baseUrl: sim.baseUrl, credentials: sim.credentials });
  return { sim, api };
}

/** What every read here shares: the built-in retry table (tests that override it say so). */
const SNAPSHOT = { retryTable: DEFAULT_RETRY_TABLE };
const fastRetry = { attempts: 6, baseMs: 1, maxMs: 5 };

describe('remote snapshot', () => {
  it('reads every page in full and normalises each item', async () => {
    const { api } = await setup(250);
    const progress: number[] = [];
    const snapshot = await readRemoteSnapshot(api, {
      ...SNAPSHOT,
      chatbot: BOT,
      pageSize: 100,
      concurrency: 3,
      maxRereads: 1,
      onProgress: (read) => progress.push(read),
    });
    expect(snapshot.complete).toBe(true);
    expect(snapshot.incompleteReasons).toEqual([]);
    expect(snapshot.virtualCount).toBe(250);
    const listings = remoteListingsOf(snapshot.rows);
    expect(listings).toHaveLength(250);
    expect(new Set(listings.map((l) => l.fields.MLSNumber)).size).toBe(250);
    expect(listings[0]?.fields.MLSNumber).toBe(sampleListing(0).MLSNumber);
    expect(listings[0]?.fields).toMatchObject({
      Bedrooms: sampleListing(0).Bedrooms,
      City: sampleListing(0).City,
      Images: sampleListing(0).Images,
    });
    expect(progress.at(-1)).toBe(250);
  });

  it('an empty chatbot is a complete, empty snapshot', async () => {
    const { api } = await setup(0);
    const snapshot = await readRemoteSnapshot(api, { ...SNAPSHOT, chatbot: BOT, pageSize: 100, concurrency: 2, maxRereads: 1 });
    expect(snapshot).toMatchObject({ complete: true, virtualCount: 0 });
    expect(snapshot.rows.length).toBe(0);
  });

  it('retries transient page failures (HTTP 503, envelope 500) and still completes', async () => {
    const { api, sim } = await setup(300, { seed: 7, http503Rate: 0.3, envelopeFailureRate: 0.2 });
    const snapshot = await readRemoteSnapshot(api, {
      ...SNAPSHOT,
      chatbot: BOT,
      pageSize: 50,
      concurrency: 3,
      maxRereads: 1,
      retry: fastRetry,
    });
    expect(snapshot.complete).toBe(true);
    expect(snapshot.rows.length).toBe(300);
    expect(sim.state.callCounts().listListings).toBeGreaterThan(6);
  });

  it('marks the snapshot incomplete when a later page keeps failing', async () => {
    const { api, sim } = await setup(300);
    const snapshot = await readRemoteSnapshot(api, {
      ...SNAPSHOT,
      chatbot: BOT,
      pageSize: 50,
      concurrency: 1,
      maxRereads: 1,
      retry: { attempts: 2, baseMs: 1, maxMs: 1 },
      onProgress: (read) => {
        if (read === 50) sim.state.setFaults({ http503Rate: 1 });
      },
    });
    expect(snapshot.complete).toBe(false);
    expect(snapshot.incompleteReasons.join('\n')).toMatch(/page 2 could not be read: .*503/);
    expect(snapshot.rows.length).toBe(50);
  });

  it('fails outright when the first page cannot be read (no VirtualCount to check against)', async () => {
    const { api } = await setup(10, { http503Rate: 1 });
    await expect(
      readRemoteSnapshot(api, {
        ...SNAPSHOT,
        chatbot: BOT,
        pageSize: 50,
        concurrency: 1,
        maxRereads: 1,
        retry: { attempts: 2, baseMs: 1, maxMs: 1 },
      }),
    ).rejects.toMatchObject({ code: 'HTTP_STATUS' });
  });

  it('detects listings added or removed while paging, re-reads, and reports drift that persists', async () => {
    const { api, sim } = await setup(200, { seed: 11, driftRate: 1 });
    const snapshot = await readRemoteSnapshot(api, { ...SNAPSHOT, chatbot: BOT, pageSize: 20, concurrency: 1, maxRereads: 2 });
    expect(snapshot.complete).toBe(false);
    expect(snapshot.incompleteReasons.join('\n')).toMatch(/VirtualCount changed|seen on pages|but VirtualCount is/);
    // three whole reads: the first and two re-reads
    expect(sim.state.callCounts().listListings).toBeGreaterThanOrEqual(30);
  });

  it('recovers when drift stops before a re-read', async () => {
    const { api, sim } = await setup(120, { seed: 5, driftRate: 1 });
    let pages = 0;
    const snapshot = await readRemoteSnapshot(api, {
      ...SNAPSHOT,
      chatbot: BOT,
      pageSize: 20,
      concurrency: 1,
      maxRereads: 2,
      onProgress: () => {
        pages += 1;
        if (pages === 6) sim.state.setFaults({});
      },
    });
    expect(snapshot.complete).toBe(true);
    expect(snapshot.rows.length).toBe(snapshot.virtualCount);
    expect(snapshot.rows.length).toBe(sim.state.listings(BOT).length);
  });
});

describe('a service that caps PageSize silently', () => {
  /** The PageSize of every list request, in the order they were sent. */
  const askedSizes = (s: RunningSimulator): unknown[] =>
    s.state.calls().map((call) => (call.body as { PageSize?: unknown } | undefined)?.PageSize);

  it('is read at the size page 1 shows: complete, every listing once', async () => {
    const { api, sim } = await setup(250, {}, { pageSizeCap: 37 });
    const snapshot = await readRemoteSnapshot(api, { ...SNAPSHOT, chatbot: BOT, pageSize: 100, concurrency: 3, maxRereads: 1 });
    expect(snapshot.incompleteReasons).toEqual([]);
    expect(snapshot).toMatchObject({ complete: true, virtualCount: 250 });
    const listings = remoteListingsOf(snapshot.rows);
    expect(listings.map((l) => l.fields.MLSNumber)).toEqual(Array.from({ length: 250 }, (_, i) => sampleListing(i).MLSNumber));
    // Page 1 as asked, then ceil(250 / 37) − 1 = 6 pages at the cap: no page read twice.
    expect(askedSizes(sim)).toEqual([100, 37, 37, 37, 37, 37, 37]);
  });

  it('a cap the list fits under changes nothing', async () => {
    const { api, sim } = await setup(30, {}, { pageSizeCap: 37 });
    const snapshot = await readRemoteSnapshot(api, { ...SNAPSHOT, chatbot: BOT, pageSize: 100, concurrency: 3, maxRereads: 1 });
    expect(snapshot).toMatchObject({ complete: true, virtualCount: 30 });
    expect(askedSizes(sim)).toEqual([100]);
  });

  it('drift while a capped list is paged still ends incomplete', async () => {
    const { api, sim } = await setup(250, { seed: 3, driftRate: 1 }, { pageSizeCap: 37 });
    const snapshot = await readRemoteSnapshot(api, { ...SNAPSHOT, chatbot: BOT, pageSize: 100, concurrency: 3, maxRereads: 2 });
    expect(snapshot.complete).toBe(false);
    expect(snapshot.incompleteReasons.join('\n')).toMatch(/VirtualCount changed|seen on pages|but VirtualCount is/);
    // Every read after the first page 1 asks at the cap, re-reads included.
    expect(
      askedSizes(sim)
        .slice(1)
        .every((size) => size === 37),
    ).toBe(true);
  });
});

describe('the snapshot retries with the configured table', () => {
  // LISTING_SYNC_RETRY_ENVELOPE_CODES=429: envelope Code 500 is no longer worth repeating.
  const no500 = mergeRetryTable(DEFAULT_RETRY_TABLE, retryTableOverrideSchema.parse({ envelopeCodes: '429' }));

  it('fails at once on an envelope 500 the configured table does not retry (the default table retries it)', async () => {
    const { api, sim } = await setup(10, { envelopeFailureRate: 1 });
    const options = { chatbot: BOT, pageSize: 50, concurrency: 1, maxRereads: 1, retry: { attempts: 4, baseMs: 1, maxMs: 1 } };
    await expect(readRemoteSnapshot(api, { ...options, retryTable: no500 })).rejects.toMatchObject({
      code: 'ENVELOPE_FAILURE',
      details: { envelopeCode: 500 },
    });
    expect(sim.state.callCounts().listListings).toBe(1);
    await expect(readRemoteSnapshot(api, { ...options, retryTable: DEFAULT_RETRY_TABLE })).rejects.toMatchObject({
      code: 'ENVELOPE_FAILURE',
    });
    expect(sim.state.callCounts().listListings).toBe(1 + 4);
  });

  it('a later page failing that way makes the snapshot incomplete without retries', async () => {
    const { api, sim } = await setup(120);
    const snapshot = await readRemoteSnapshot(api, {
      chatbot: BOT,
      pageSize: 50,
      concurrency: 1,
      maxRereads: 1,
      retryTable: no500,
      retry: { attempts: 4, baseMs: 1, maxMs: 1 },
      onProgress: (read) => {
        if (read === 50) sim.state.setFaults({ envelopeFailureRate: 1 });
      },
    });
    expect(snapshot.complete).toBe(false);
    expect(snapshot.incompleteReasons).toEqual([
      expect.stringMatching(/^page 2 could not be read: /),
      expect.stringMatching(/^page 3 could not be read: /),
    ]);
    expect(sim.state.callCounts().listListings).toBe(3);
  });
});

describe('Retry-After on a page read', () => {
  it("is honoured up to the read's longest delay: a service asking for an hour does not park the snapshot", async () => {
    // The simulator only sends Retry-After with 429s; this service answers 503 + Retry-After: 3600 once.
    let requests = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        if (requests === 1) {
          res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '3600' });
          res.end('busy');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ Data: { List: [], VirtualCount: 0 }, Version: '1.0', Success: true, Code: 200, Message: '' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    api = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: { secretKey: 's', sessionKey: 'k', projectAuthToken: 'p' } });
    try {
      const started = Date.now();
      const snapshot = await readRemoteSnapshot(api, {
        ...SNAPSHOT,
        chatbot: BOT,
        pageSize: 50,
        concurrency: 1,
        maxRereads: 1,
        retry: { attempts: 3, baseMs: 1, maxMs: 40 },
      });
      // The service asked for an hour; the read's longest delay is 40 ms: seconds mean it was capped.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(snapshot).toMatchObject({ complete: true, virtualCount: 0 });
      expect(requests).toBe(2);
    } finally {
      await api.close();
      api = undefined;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 10_000);
});
