/**
 * The simulator's EntityEvent resource and the event pull (event-pull.ts) over real HTTP: events
 * by sequence with `$count` and server-driven paging, `ResourceName eq`, compaction and purge,
 * a Property request naming 100 keys, and a photo-only change (a Media event) brought to its listing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventBounds, pullEvents } from '../../src/feed/reso-api/event-pull.js';
import { clientCredentialsTokens } from '../../src/feed/reso-api/token-provider.js';
import type { ResoRecord } from '../../src/feed/reso-api/types.js';
import { startResoSimulator, type RunningResoSimulator } from '../../src/sim/reso/server.js';
import { keyChunks } from '../../src/feed/reso-api/entity-events.js';

const running = new Set<RunningResoSimulator>();
afterEach(() => Promise.all([...running].map((s) => s.close())).then(() => running.clear()));

async function sim(records: number): Promise<RunningResoSimulator> {
  const started = await startResoSimulator({ port: 0, maxTop: 50 });
  running.add(started);
  started.state.records.seed({ count: records, status: 'Active', photos: 1 });
  return started;
}

const options = (s: RunningResoSimulator) => ({
  propertyUrl: s.propertyUrl,
  tokens: clientCredentialsTokens({ tokenUrl: s.tokenUrl, clientId: s.credentials.clientId, clientSecret: s.credentials.clientSecret }),
});

async function get(
  s: RunningResoSimulator,
  query: string,
): Promise<{ value: ResoRecord[]; '@odata.count'?: number; '@odata.nextLink'?: string }> {
  const authorization = await options(s).tokens.authorization();
  const answer = await fetch(`${s.propertyUrl.replace(/Property$/, '')}${query}`, { headers: { authorization } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { value: ResoRecord[] };
}

describe('the EntityEvent resource', () => {
  it('serves events after a sequence, counted and paged, and filters by ResourceName', async () => {
    const s = await sim(60); // 60 Property + 60 Media events
    const page = await get(s, 'EntityEvent?$filter=EntityEventSequence gt 10&$orderby=EntityEventSequence&$count=true');
    expect(page['@odata.count']).toBe(110);
    expect(page.value).toHaveLength(50);
    expect(page.value[0]).toEqual({
      EntityEventSequence: 11,
      ResourceName: expect.any(String),
      ResourceRecordKey: expect.any(String),
      ResourceRecordUrl: null,
    });
    expect(page['@odata.nextLink']).toBeDefined();
    const media = await get(s, "EntityEvent?$filter=ResourceName eq 'Media' and EntityEventSequence le 20&$count=true");
    expect(media['@odata.count']).toBe(10);
    s.state.records.modify({ keys: ['K0000001'] });
    expect(s.state.records.events.compact()).toBe(1);
    expect(s.state.records.events.purge(100)).toBe(98);
    expect(await eventBounds(options(s))).toMatchObject({ oldest: 100, newest: 121, requests: 2 });
  });

  it('answers a Property request naming 100 keys', async () => {
    const s = await sim(120);
    const keys = s.state.records.list().map((record) => record.property.ListingKey);
    const [filter = ''] = keyChunks('ListingKey', keys.slice(0, 100));
    const answer = await get(s, `Property?$filter=${encodeURIComponent(filter)}&$count=true`);
    expect(answer['@odata.count']).toBe(100);
  });

  it('brings a photo-only change to its listing, and names a removed listing gone', async () => {
    const s = await sim(10);
    const after = s.state.records.events.lastSequence;
    s.state.records.setMedia({ keys: ['K0000003'], photos: 2, touch: false });
    s.state.records.remove({ keys: ['K0000007'] });
    const pulled = await pullEvents({ ...options(s), after });
    const rows: ResoRecord[] = [];
    for await (const page of pulled.run.pages) rows.push(...page);
    expect(rows.map((row) => row.ListingKey)).toEqual(['K0000003']);
    expect(rows[0]?.Media).toHaveLength(2);
    expect(pulled.gone).toEqual(['K0000007']);
    expect(pulled.lastSequence).toBe(s.state.records.events.lastSequence);
    expect(pulled.run.result()).toMatchObject({ complete: true, records: 1 });
  });
});
