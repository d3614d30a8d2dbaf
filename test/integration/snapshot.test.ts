import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import type { RunningSimulator } from '../../src/sim/server.js';
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

async function setup(count: number, faults: Parameters<RunningSimulator['state']['setFaults']>[0] = {}): Promise<{ sim: RunningSimulator; api: ApiClient }> {
  sim = await startTestSim({ chatbots: [BOT], listings: { [BOT]: Array.from({ length: count }, (_, i) => sampleListing(i, { SerialNumber: BOT })) } });
  sim.state.setFaults(faults);
  api = createApiClient({ baseUrl: sim.baseUrl, credentials: sim.credentials });
  return { sim, api };
}

const fastRetry = { attempts: 6, baseDelayMs: 1, maxDelayMs: 5 };

describe('remote snapshot', () => {
  it('reads every page in full and normalises each item', async () => {
    const { api } = await setup(250);
    const progress: number[] = [];
    const snapshot = await readRemoteSnapshot(api, { chatbot: BOT, pageSize: 100, concurrency: 3, maxRereads: 1, onProgress: (read) => progress.push(read) });
    expect(snapshot.complete).toBe(true);
    expect(snapshot.incompleteReasons).toEqual([]);
    expect(snapshot.virtualCount).toBe(250);
    const listings = remoteListingsOf(snapshot.rows);
    expect(listings).toHaveLength(250);
    expect(new Set(listings.map((l) => l.fields.MLSNumber)).size).toBe(250);
    expect(listings[0]?.fields.MLSNumber).toBe(sampleListing(0).MLSNumber);
    expect(listings[0]?.fields).toMatchObject({ Bedrooms: sampleListing(0).Bedrooms, City: sampleListing(0).City, Images: sampleListing(0).Images });
    expect(progress.at(-1)).toBe(250);
  });

  it('an empty chatbot is a complete, empty snapshot', async () => {
    const { api } = await setup(0);
    const snapshot = await readRemoteSnapshot(api, { chatbot: BOT, pageSize: 100, concurrency: 2, maxRereads: 1 });
    expect(snapshot).toMatchObject({ complete: true, virtualCount: 0 });
    expect(snapshot.rows.length).toBe(0);
  });

  it('retries transient page failures (HTTP 503, envelope 500) and still completes', async () => {
    const { api, sim } = await setup(300, { seed: 7, http503Rate: 0.3, envelopeFailureRate: 0.2 });
    const snapshot = await readRemoteSnapshot(api, { chatbot: BOT, pageSize: 50, concurrency: 3, maxRereads: 1, retry: fastRetry });
    expect(snapshot.complete).toBe(true);
    expect(snapshot.rows.length).toBe(300);
    expect(sim.state.callCounts().listListings).toBeGreaterThan(6);
  });

  it('marks the snapshot incomplete when a later page keeps failing', async () => {
    const { api, sim } = await setup(300);
    const snapshot = await readRemoteSnapshot(api, {
      chatbot: BOT, pageSize: 50, concurrency: 1, maxRereads: 1, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
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
    await expect(readRemoteSnapshot(api, { chatbot: BOT, pageSize: 50, concurrency: 1, maxRereads: 1, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } })).rejects.toMatchObject({ code: 'HTTP_STATUS' });
  });

  it('detects listings added or removed while paging, re-reads, and reports drift that persists', async () => {
    const { api, sim } = await setup(200, { seed: 11, driftRate: 1 });
    const snapshot = await readRemoteSnapshot(api, { chatbot: BOT, pageSize: 20, concurrency: 1, maxRereads: 2 });
    expect(snapshot.complete).toBe(false);
    expect(snapshot.incompleteReasons.join('\n')).toMatch(/VirtualCount changed|seen on pages|but VirtualCount is/);
    // three whole reads: the first and two re-reads
    expect(sim.state.callCounts().listListings).toBeGreaterThanOrEqual(30);
  });

  it('recovers when drift stops before a re-read', async () => {
    const { api, sim } = await setup(120, { seed: 5, driftRate: 1 });
    let pages = 0;
    const snapshot = await readRemoteSnapshot(api, {
      chatbot: BOT, pageSize: 20, concurrency: 1, maxRereads: 2,
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
