/**
 * A job's key lookup (jobs/support/lookup.ts) over the simulator: it pages through the one pager,
 * orders what it finds oldest first, and retries its reads with the CONFIGURED retry table; a
 * worker hands its table to the lookups of its jobs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lookUpKey } from '../../jobs/support/lookup.js';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { DEFAULT_RETRY_TABLE, mergeRetryTable, retryTableOverrideSchema } from '../../src/api/retry-policy.js';
import { listingHash } from '../../src/domain/hash.js';
import type { ListingWrite } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import type { RunningSimulator, SimOptions } from '../../src/sim/server.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, nextRunId, queueBenchPerTest } from '../helpers/queue.js';
import { startTestSim } from '../helpers/sim.js';

const BOT = 'bot-lookup';
// LISTING_SYNC_RETRY_ENVELOPE_CODES=429: envelope Code 500 is no longer worth repeating.
const NO_500 = mergeRetryTable(DEFAULT_RETRY_TABLE, retryTableOverrideSchema.parse({ envelopeCodes: '429' }));

/** What a test opened (simulator, client), closed after it, last first. */
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (let next = opened.pop(); next !== undefined; next = opened.pop()) await next.close();
});

async function setup(listings: ListingWrite[], options: SimOptions = {}): Promise<{ sim: RunningSimulator; api: ApiClient }> {
  const sim = await startTestSim({ ...options, chatbots: [BOT], listings: { [BOT]: listings } });
  opened.push(sim);
  const api = createApiClient({ baseUrl: sim.baseUrl, credentials: sim.credentials });
  opened.push(api);
  return { sim, api };
}

function fieldsOf(listing: ListingWrite): Omit<ListingWrite, 'SerialNumber'> {
  const { SerialNumber: _serial, ...fields } = listing;
  return fields;
}

describe('lookUpKey', () => {
  it('finds a URL key pages into a city, every copy, oldest first', async () => {
    const inCity = (i: number): ListingWrite => sampleListing(i, { SerialNumber: BOT, City: 'Springfield' });
    const listings = Array.from({ length: 250 }, (_, i) => inCity(i));
    const wanted = inCity(230);
    const { sim, api } = await setup([...listings, { ...wanted, MLSNumber: 'ML-COPY' }]);
    const found = await lookUpKey({ api, retryTable: DEFAULT_RETRY_TABLE }, BOT, 'URL', fieldsOf(wanted));
    expect(found.map((l) => l.fields.MLSNumber)).toEqual([wanted.MLSNumber, 'ML-COPY']);
    expect(Number(found[0]?.id)).toBeLessThan(Number(found[1]?.id));
    expect(sim.state.callCounts().listListings).toBe(3);
  });

  it('pages on past a page 1 a silent PageSize cap cut short, to a copy on a later page', async () => {
    const inCity = (i: number): ListingWrite => sampleListing(i, { SerialNumber: BOT, City: 'Springfield' });
    const wanted = inCity(120);
    const listings = [...Array.from({ length: 250 }, (_, i) => inCity(i)), { ...wanted, MLSNumber: 'ML-COPY' }];
    const { sim, api } = await setup(listings, { pageSizeCap: 37 });
    const found = await lookUpKey({ api, retryTable: DEFAULT_RETRY_TABLE }, BOT, 'URL', fieldsOf(wanted));
    // Listing 120 is on page 2 at 100 per page, page 4 at 37; the copy is the last listing (page 7).
    expect(found.map((l) => l.fields.MLSNumber)).toEqual([wanted.MLSNumber, 'ML-COPY']);
    expect(sim.state.callCounts().listListings).toBe(Math.ceil(251 / 37));
  });

  it('retries a read the configured table retries, and fails at once on one it does not', async () => {
    const listing = sampleListing(1, { SerialNumber: BOT });
    const { sim, api } = await setup([listing]);
    sim.state.setFaults({ envelopeFailureRate: 1 });
    await expect(lookUpKey({ api, retryTable: DEFAULT_RETRY_TABLE }, BOT, 'MLSNumber', fieldsOf(listing))).rejects.toMatchObject({
      code: 'ENVELOPE_FAILURE',
    });
    expect(sim.state.callCounts().listListings).toBe(3);
    await expect(lookUpKey({ api, retryTable: NO_500 }, BOT, 'MLSNumber', fieldsOf(listing))).rejects.toMatchObject({
      code: 'ENVELOPE_FAILURE',
    });
    expect(sim.state.callCounts().listListings).toBe(3 + 1);
  });

  it('hands a rate limit to the queue at once, whatever the table says', async () => {
    const listing = sampleListing(1, { SerialNumber: BOT });
    const { sim, api } = await setup([listing]);
    sim.state.setFaults({ rateLimitRate: 1 });
    await expect(lookUpKey({ api, retryTable: DEFAULT_RETRY_TABLE }, BOT, 'MLSNumber', fieldsOf(listing))).rejects.toMatchObject({
      code: 'HTTP_STATUS',
      details: { status: 429 },
    });
    expect(sim.state.callCounts().listListings).toBe(1);
  });
});

describe('a worker started with a configured retry table', () => {
  const openBench = queueBenchPerTest();

  it('looks keys up with it: a create whose lookup meets an envelope 500 fails at once, with one read', async () => {
    const bench = await openBench({ chatbots: [BOT] }, 'lookup-table');
    const [listing] = feedOf(BOT, 0, 1);
    if (listing === undefined) throw new Error('no listing');
    // A ledger entry from an older run and no listing on the service: the create looks the key up first.
    await bench.store.ledger.adopt(BOT, 'MLSNumber', [
      {
        key: listing.MLSNumber,
        entry: { hash: listingHash(fieldsOf(listing)), remoteId: '999', writtenAt: Date.now(), runId: nextRunId() },
      },
    ]);
    const plan = await bench.plan(BOT, [listing]);
    expect(plan.creates.map((c) => c.key)).toEqual([listing.MLSNumber]);
    bench.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['listListings'] });
    await bench.work({ retryTable: NO_500 });
    const runId = await bench.enqueue(plan);
    const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ created: 0, failed: 1, retried: 0 });
    expect(bench.sim.state.callCounts().listListings).toBe(1);
    expect(bench.sim.state.callCounts().createListing ?? 0).toBe(0);
  });
});
