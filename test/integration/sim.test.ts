/**
 * The simulator's faithfulness rules, each checked over real HTTP with undici `request`:
 * envelope, auth (api-spec 5), validation, the four listing endpoints, edits, tables, faults
 * and the admin view.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ENDPOINTS, type EndpointName } from '../../src/api/endpoints.js';
import { listListingsDataSchema, listingReadSchema, listTablesDataSchema, looseEnvelopeSchema } from '../../src/api/schemas.js';
import { listingWriteSchema } from '../../src/domain/listing.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { DEFAULT_SIM_RANDOM_CODE, type RunningSimulator, type SimOptions } from '../../src/sim/server.js';
import { startTestSim } from '../helpers/sim.js';

let sims: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
  sims = [];
});

async function sim(options: SimOptions = {}): Promise<RunningSimulator> {
  const started = await startTestSim(options);
  sims.push(started);
  return started;
}

type Headers = Record<string, string>;
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  env: { Data: unknown; Success: boolean; Code: number; Message: string; Version: string };
}

/** The headers each endpoint needs, by its auth kind. */
function goodHeaders(s: RunningSimulator, endpoint: EndpointName): Headers {
  const auth = ENDPOINTS[endpoint].auth;
  if (auth === 'project') return { customauth: s.credentials.projectAuthToken };
  if (auth === 'session') return { 'chatrobot-sessionkey': s.credentials.sessionKey };
  return { authorization: s.credentials.secretKey };
}

async function call(s: RunningSimulator, endpoint: EndpointName, body?: unknown, headers?: Headers, rawBody?: string): Promise<Answer> {
  const spec = ENDPOINTS[endpoint];
  const url = spec.method === 'GET' ? `${s.siteUrl}${spec.path}${String(body)}` : `${s.baseUrl}${spec.path}`;
  const res = await request(url, {
    method: spec.method,
    headers: { ...(spec.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...(headers ?? goodHeaders(s, endpoint)) },
    ...(spec.method === 'POST' ? { body: rawBody ?? JSON.stringify(body) } : {}),
  });
  const env = looseEnvelopeSchema.parse(await res.body.json());
  return { status: res.statusCode, headers: res.headers, env };
}

const listPage = async (s: RunningSimulator, body: Record<string, unknown>) => {
  const answer = await call(s, 'listListings', { SerialNumber: 'bot-demo', ...body });
  expect(answer.env.Message).toBe('');
  return listListingsDataSchema.parse(answer.env.Data);
};

describe('envelope and auth', () => {
  it('answers a success with the full envelope: Code 200, empty Message, configured Version', async () => {
    const s = await sim({ version: '2.3' });
    const answer = await call(s, 'createListing', sampleListing(1));
    expect(answer.status).toBe(200);
    expect(answer.env).toEqual({ Data: '1', Version: '2.3', Success: true, Code: 200, Message: '' });
  });

  it('Edit and EditKnowledge need Authorization; a session key is not enough', async () => {
    const s = await sim();
    for (const endpoint of ['editChatbot', 'editKnowledge'] as const) {
      const noAuth = await call(s, endpoint, { serialNumber: 'bot-demo' }, { 'chatrobot-sessionkey': s.credentials.sessionKey });
      expect(noAuth.status).toBe(401);
      expect(noAuth.env).toMatchObject({ Success: false, Code: 401, Message: 'missing Authorization header' });
    }
    expect((await call(s, 'editChatbot', { serialNumber: 'bot-demo' })).env.Data).toBe(1);
  });

  it('never echoes a wrong credential value', async () => {
    const s = await sim();
    const answer = await call(s, 'editChatbot', { serialNumber: 'bot-demo' }, { authorization: 'leaked-value-123' });
    expect(answer.status).toBe(401);
    expect(answer.env.Message).toBe('wrong Authorization header value');
    expect(JSON.stringify(answer.env)).not.toContain('leaked-value-123');
  });

  it('create, update and delete accept either Authorization or chatrobot-sessionkey', async () => {
    const s = await sim();
    const bySecret = await call(s, 'createListing', sampleListing(1), { authorization: s.credentials.secretKey });
    const bySession = await call(s, 'createListing', sampleListing(2), { 'chatrobot-sessionkey': s.credentials.sessionKey });
    expect([bySecret.env.Success, bySession.env.Success]).toEqual([true, true]);
    const update = { ...sampleListing(1), Key: 'ML100001', KeyType: 'MLSNumber' };
    expect((await call(s, 'updateListing', update, { 'chatrobot-sessionkey': s.credentials.sessionKey })).env.Data).toBe(1);
    const del = { SerialNumber: 'bot-demo', Keys: ['ML100002'], KeyType: 'MLSNumber' };
    expect((await call(s, 'deleteListings', del, { authorization: s.credentials.secretKey })).env.Data).toEqual({ SuccessCount: 1 });
    const neither = await call(s, 'createListing', sampleListing(3), {});
    expect(neither.status).toBe(401);
    expect(neither.env.Message).toBe('missing Authorization or chatrobot-sessionkey header');
    const wrong = await call(s, 'deleteListings', del, { 'chatrobot-sessionkey': 'nope' });
    expect([wrong.status, wrong.env.Message]).toEqual([401, 'wrong chatrobot-sessionkey header value']);
    // A wrong key beside a right one is still a wrong key: a mistyped API_SECRET_KEY must not write.
    const beside = await call(s, 'createListing', sampleListing(4), {
      authorization: 'nope',
      'chatrobot-sessionkey': s.credentials.sessionKey,
    });
    expect([beside.status, beside.env.Message]).toEqual([401, 'wrong Authorization header value']);
    expect(s.state.listings('bot-demo').map((l) => l.MLSNumber)).toEqual(['ML100001']);
  });

  it('List needs chatrobot-sessionkey and tables need customauth', async () => {
    const s = await sim();
    const list = await call(s, 'listListings', { SerialNumber: 'bot-demo' }, { authorization: s.credentials.secretKey });
    expect([list.status, list.env.Code, list.env.Message]).toEqual([401, 401, 'missing chatrobot-sessionkey header']);
    const tables = await call(s, 'listTables', DEFAULT_SIM_RANDOM_CODE, { authorization: s.credentials.secretKey });
    expect([tables.status, tables.env.Message]).toEqual([401, 'missing customauth header']);
  });

  it('requires Content-Type application/json on POSTs', async () => {
    const s = await sim();
    const res = await request(`${s.baseUrl}${ENDPOINTS.createListing.path}`, {
      method: 'POST',
      headers: { authorization: s.credentials.secretKey, 'content-type': 'text/plain' },
      body: JSON.stringify(sampleListing(1)),
    });
    const env = looseEnvelopeSchema.parse(await res.body.json());
    expect([env.Success, env.Code]).toEqual([false, 415]);
    expect(s.state.listings('bot-demo')).toHaveLength(0);
  });
});

describe('validation', () => {
  it('rejects a bad enum with a message a person understands, HTTP 200 Code 400', async () => {
    const s = await sim();
    const answer = await call(s, 'createListing', { ...sampleListing(1), Status: 'Pending' });
    expect(answer.status).toBe(200);
    expect(answer.env).toMatchObject({
      Success: false,
      Code: 400,
      Message: "Status: must be one of Active, PreOnMarket, Sold (got 'Pending')",
    });
    expect(s.state.listings('bot-demo')).toHaveLength(0);
  });

  it('names missing required fields and every bad enum (SaleType, AreaUnit, Tours, SpaceType, KeyType)', async () => {
    const s = await sim();
    const { Bedrooms: _omitted, ...noBedrooms } = sampleListing(1);
    expect((await call(s, 'createListing', noBedrooms)).env.Message).toBe('Bedrooms: is required');
    const bad = { ...sampleListing(1), SaleType: 'sale', AreaUnit: 'acres', Tours: 'Video', SpaceType: 'Garage' };
    const message = (await call(s, 'createListing', bad)).env.Message;
    expect(message).toContain("SaleType: must be one of for_sale, for_rent (got 'sale')");
    expect(message).toContain("AreaUnit: must be one of Square Feet, Square Meters (got 'acres')");
    expect(message).toContain("Tours: must be one of OpenHouse, 3D (got 'Video')");
    expect(message).toContain("SpaceType: must be one of Entire place, Room (got 'Garage')");
    const update = await call(s, 'updateListing', { ...sampleListing(1), Key: 'x', KeyType: 'Id' });
    expect(update.env.Message).toBe("KeyType: must be one of NewOaks, MLSNumber, URL (got 'Id')");
  });

  it('applies the SyncSiteMapDays rule (4.4.1)', async () => {
    const s = await sim();
    const missing = await call(s, 'editKnowledge', { serialNumber: 'bot-demo', EnableSyncSiteMap: true });
    expect(missing.env).toMatchObject({ Code: 400, Message: expect.stringContaining('SyncSiteMapDays is required') });
    const wrong = await call(s, 'editKnowledge', { serialNumber: 'bot-demo', EnableSyncSiteMap: true, SyncSiteMapDays: 5 });
    expect(wrong.env.Message).toBe('SyncSiteMapDays: must be one of 30, 7, 1 (got 5)');
    expect(s.state.knowledge('bot-demo')).toBeUndefined();
  });

  it('answers Code 404 for an unknown chatbot and Code 400 for malformed JSON', async () => {
    const s = await sim();
    const unknown = await call(s, 'createListing', sampleListing(1, { SerialNumber: 'bot-x' }));
    expect(unknown.env).toMatchObject({ Success: false, Code: 404, Message: 'chatbot bot-x not found' });
    const malformed = await call(s, 'createListing', undefined, undefined, '{"SerialNumber": ');
    expect(malformed.env).toMatchObject({ Success: false, Code: 400, Message: expect.stringContaining('malformed JSON') });
  });
});

describe('listing endpoints', () => {
  it('create issues a new string ID each time and allows duplicates, which state.duplicates finds', async () => {
    const s = await sim();
    const first = await call(s, 'createListing', sampleListing(7));
    const second = await call(s, 'createListing', sampleListing(7));
    expect([first.env.Data, second.env.Data]).toEqual(['1', '2']);
    expect(s.state.listings('bot-demo').map((l) => l.ID)).toEqual(['1', '2']);
    expect([s.state.listingCount('bot-demo'), s.state.listingCount('bot-unknown')]).toEqual([2, 0]);
    expect(s.state.duplicates('bot-demo', 'MLSNumber')).toEqual(['ML100007']);
    expect(s.state.duplicates('bot-demo', 'URL')).toEqual(['https://example.test/listing/7']);
  });

  it('update selects by NewOaks id, MLSNumber or URL, replaces fields, and counts matches', async () => {
    const s = await sim({ listings: { 'bot-demo': [sampleListing(1), sampleListing(2), sampleListing(2)] } });
    const byId = await call(s, 'updateListing', { ...sampleListing(1, { Bedrooms: 9 }), Key: '1', KeyType: 'NewOaks' });
    expect(byId.env.Data).toBe(1);
    const byUrl = await call(s, 'updateListing', {
      ...sampleListing(1, { Status: 'Sold' }),
      Key: 'https://example.test/listing/1',
      KeyType: 'URL',
    });
    expect(byUrl.env.Data).toBe(1);
    const byMls = await call(s, 'updateListing', { ...sampleListing(2, { City: 'Elsewhere' }), Key: 'ML100002', KeyType: 'MLSNumber' });
    expect(byMls.env.Data).toBe(2);
    const none = await call(s, 'updateListing', { ...sampleListing(3), Key: 'ML999', KeyType: 'MLSNumber' });
    expect(none.env).toMatchObject({ Success: true, Data: 0 });
    const stored = s.state.listings('bot-demo');
    expect(stored[0]).toMatchObject({ ID: '1', Status: 'Sold', Bedrooms: sampleListing(1).Bedrooms });
    expect(stored.slice(1).map((l) => l.City)).toEqual(['Elsewhere', 'Elsewhere']);
    expect(stored).toHaveLength(3);
  });

  it('list filters, pages by ID ascending and reports VirtualCount of all matches', async () => {
    const listings = Array.from({ length: 45 }, (_, i) => sampleListing(i + 1));
    const s = await sim({ chatbots: ['bot-demo', 'other'], listings: { 'bot-demo': listings, other: [sampleListing(100)] } });
    const first = await listPage(s, {});
    expect(first.List).toHaveLength(20);
    expect(first.VirtualCount).toBe(45);
    const last = await listPage(s, { PageNumber: 3 });
    expect(last.List.map((item) => item.ID)).toEqual([41, 42, 43, 44, 45]);
    expect((await listPage(s, { PageNumber: 4 })).List).toEqual([]);
    const city = listings.filter((l) => l.City === 'Lakeside');
    const byCity = await listPage(s, { CityName: 'lakeSIDE', PageSize: 100 });
    expect(byCity.VirtualCount).toBe(city.length);
    expect(byCity.List.map((i) => i.MLSNumber)).toEqual(city.map((l) => l.MLSNumber));
    expect((await listPage(s, { SaleType: 'for_rent' })).VirtualCount).toBe(listings.filter((l) => l.SaleType === 'for_rent').length);
    expect((await listPage(s, { MLSNumber: 'ML100010' })).List.map((i) => i.ID)).toEqual([10]);
    expect((await listPage(s, { MLSNumber: 'ML100100' })).VirtualCount).toBe(0);
  });

  it('list refuses a PageSize above the maximum, naming it', async () => {
    const s = await sim({ maxPageSize: 50 });
    const answer = await call(s, 'listListings', { SerialNumber: 'bot-demo', PageSize: 51 });
    expect(answer.env).toMatchObject({ Success: false, Code: 400, Message: 'PageSize: must be at most 50 (got 51)' });
  });

  it('with pageSizeCap answers at most that many per page, silently, paging in the capped size', async () => {
    const s = await sim({ pageSizeCap: 7, listings: { 'bot-demo': Array.from({ length: 30 }, (_, i) => sampleListing(i + 1)) } });
    const first = await listPage(s, { PageSize: 20 });
    expect(first.List.map((item) => item.ID)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(first.VirtualCount).toBe(30);
    expect((await listPage(s, { PageNumber: 2, PageSize: 20 })).List.map((item) => item.ID)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect((await listPage(s, { PageNumber: 3, PageSize: 5 })).List.map((item) => item.ID)).toEqual([11, 12, 13, 14, 15]);
    const above = await call(s, 'listListings', { SerialNumber: 'bot-demo', PageSize: 101 });
    expect(above.env).toMatchObject({ Success: false, Code: 400, Message: 'PageSize: must be at most 100 (got 101)' });
  });

  it('renders the read shape of spec 2.4 (default forms: title SaleType, JSON Images, unset coordinates 0 as the service reads them)', async () => {
    const rent = sampleListing(2, { Tours: '3D', ExtensionColumn: [{ Key: 'Pool', value: 'yes' }] });
    const bare = sampleListing(3, { Latitude: undefined, Longitude: undefined, Images: undefined, Description: undefined });
    const s = await sim({ listings: { 'bot-demo': [sampleListing(1), rent, bare] } });
    const { List } = await listPage(s, {});
    for (const item of List) expect(listingReadSchema.strict().parse(item)).toEqual(item);
    const [sale, rented, plain] = List;
    expect(sale).toMatchObject({ ID: 1, SaleType: 'For Sale', Price: String(sampleListing(1).SalePrice), RentPrice: '', Tours: '' });
    expect(sale?.Images).toBe(JSON.stringify(sampleListing(1).Images));
    expect(rented).toMatchObject({ SaleType: 'For Rent', Price: String(rent.RentPrice), Tours: '3D', Area: String(rent.BuildingArea) });
    expect(JSON.parse(rented?.ExtensionColumn ?? '')).toEqual([{ Key: 'Pool', value: 'yes' }]);
    expect(rented).toMatchObject({ Bathrooms: String(rent.Bathrooms), LATITUDE: rent.Latitude, LONGITUDE: rent.Longitude });
    expect(plain).toMatchObject({ LATITUDE: 0, LONGITUDE: 0, Images: '', Description: '', UnitAreaPrice: '', ExtensionColumn: '' });
  });

  it('renders an optional field without a value in the form readForms.empty chooses: 0, "0", "", null or left out', async () => {
    const bare = sampleListing(3, {
      Latitude: undefined,
      Description: undefined,
      SalePrice: undefined,
      HOAMonth: undefined,
      City: undefined,
    });
    const s = await sim({
      readForms: { empty: { Latitude: 'null', Description: 'absent', SalePrice: 'zero', HOAMonth: 'null', City: 'absent' } },
      listings: { 'bot-demo': [bare] },
    });
    const [item] = (await listPage(s, {})).List;
    expect(listingReadSchema.strict().parse(item)).toEqual(item);
    expect(item).toMatchObject({ LATITUDE: null, LONGITUDE: bare.Longitude, SalePrice: '0', HOAMonth: null, UnitAreaPrice: '' });
    expect(item).not.toHaveProperty('Description');
    expect(item).not.toHaveProperty('City');
  });

  it('refuses an empty form a field does not allow (0 for a text member) and a field that is not optional', async () => {
    await expect(sim({ readForms: { empty: { Description: 'zero' } } })).rejects.toThrow(
      /Description may be rendered empty as blank, null, absent, not zero/,
    );
    await expect(sim({ readForms: { empty: { Bedrooms: 'null' } as never } })).rejects.toThrow(/Bedrooms is not an optional field/);
  });

  it.each([
    ['snake', 'comma', 'for_sale', 'a.jpg,b.jpg'],
    ['lower', 'semicolon', 'for sale', 'a.jpg;b.jpg'],
    ['short', 'json', 'Sale', '["a.jpg","b.jpg"]'],
  ] as const)('renders SaleType %s and Images %s', async (saleType, images, saleText, imagesText) => {
    const s = await sim({ readForms: { saleType, images }, listings: { 'bot-demo': [sampleListing(1, { Images: ['a.jpg', 'b.jpg'] })] } });
    const [item] = (await listPage(s, {})).List;
    expect(item).toMatchObject({ SaleType: saleText, Images: imagesText });
  });

  it('delete removes every match per key and counts keys that matched; a key already gone counts 0', async () => {
    const s = await sim({ listings: { 'bot-demo': [sampleListing(1), sampleListing(1), sampleListing(2), sampleListing(3)] } });
    const answer = await call(s, 'deleteListings', { SerialNumber: 'bot-demo', Keys: ['ML100001', 'ML100009'], KeyType: 'MLSNumber' });
    expect(answer.env.Data).toEqual({ SuccessCount: 1 });
    const byUrl = await call(s, 'deleteListings', {
      SerialNumber: 'bot-demo',
      Keys: ['https://example.test/listing/2', '4'],
      KeyType: 'URL',
    });
    expect(byUrl.env.Data).toEqual({ SuccessCount: 1 });
    const byId = await call(s, 'deleteListings', { SerialNumber: 'bot-demo', Keys: ['4', '1'], KeyType: 'NewOaks' });
    expect(byId.env).toMatchObject({ Success: true, Data: { SuccessCount: 1 } });
    expect(s.state.listings('bot-demo')).toEqual([]);
  });
});

describe('chatbot edits and tables', () => {
  it('Edit stores settings (Data 1), EditKnowledge stores the edit (Data true)', async () => {
    const s = await sim();
    expect((await call(s, 'editChatbot', { serialNumber: 'bot-demo', Name: 'Agent' })).env.Data).toBe(1);
    expect((await call(s, 'editChatbot', { serialNumber: 'bot-demo', ChatBubbleColor: 'rgb(1,2,3)' })).env.Data).toBe(1);
    expect(s.state.chatbotSettings('bot-demo')).toEqual({ serialNumber: 'bot-demo', Name: 'Agent', ChatBubbleColor: 'rgb(1,2,3)' });
    const edit = { serialNumber: 'bot-demo', EnableSyncSiteMap: true, SyncSiteMapDays: 7, qaList: [{ key: 'q', value: 'a' }] };
    expect((await call(s, 'editKnowledge', edit)).env.Data).toBe(true);
    expect(s.state.knowledge('bot-demo')).toEqual(edit);
  });

  it('lists the seeded project tables with field definitions; an unknown code lists none', async () => {
    const s = await sim();
    const tables = listTablesDataSchema.parse((await call(s, 'listTables', DEFAULT_SIM_RANDOM_CODE)).env.Data);
    expect(tables).toHaveLength(2);
    for (const table of tables) expect(table.FieldDefinitions.length).toBeGreaterThan(0);
    expect((await call(s, 'listTables', 'no-such-code')).env).toMatchObject({ Success: true, Data: [] });
  });
});

describe('faults', () => {
  it('http503 answers HTTP 503 and does nothing', async () => {
    const s = await sim({ faults: { http503Rate: 1 } });
    const answer = await call(s, 'createListing', sampleListing(1));
    expect([answer.status, answer.env.Success, answer.env.Code]).toEqual([503, false, 503]);
    expect(s.state.listings('bot-demo')).toEqual([]);
  });

  it('envelope failure answers Code 500 "Internal error, try again" and does nothing', async () => {
    const s = await sim({ faults: { envelopeFailureRate: 1 } });
    const answer = await call(s, 'createListing', sampleListing(1));
    expect(answer.status).toBe(200);
    expect(answer.env).toMatchObject({ Success: false, Code: 500, Message: 'Internal error, try again' });
    expect(s.state.listings('bot-demo')).toEqual([]);
  });

  it('rate limit answers Code 429 with Retry-After: 1', async () => {
    const s = await sim({ faults: { rateLimitRate: 1 } });
    const answer = await call(s, 'listListings', { SerialNumber: 'bot-demo' });
    expect(answer.env).toMatchObject({ Success: false, Code: 429, Message: 'Too many requests' });
    expect(answer.headers['retry-after']).toBe('1');
  });

  it('commitThenDrop applies the write and drops the connection, so a blind retry duplicates', async () => {
    const s = await sim({ faults: { commitThenDropRate: 1 } });
    await expect(call(s, 'createListing', sampleListing(1))).rejects.toThrow();
    await expect(call(s, 'createListing', sampleListing(1))).rejects.toThrow();
    expect(s.state.duplicates('bot-demo', 'MLSNumber')).toEqual(['ML100001']);
    expect(s.state.calls().map((c) => [c.endpoint, c.status, c.envelopeCode])).toEqual([
      ['createListing', 0, 200],
      ['createListing', 0, 200],
    ]);
    // Reads are never dropped.
    expect((await call(s, 'listListings', { SerialNumber: 'bot-demo' })).env.Success).toBe(true);
  });

  it('drift inserts or removes a listing before a list answer, so VirtualCount moves between pages', async () => {
    const s = await sim({
      listings: { 'bot-demo': Array.from({ length: 10 }, (_, i) => sampleListing(i)) },
      faults: { driftRate: 1, seed: 3 },
    });
    const counts: number[] = [];
    for (let page = 1; page <= 4; page += 1) counts.push((await listPage(s, { PageNumber: page, PageSize: 5 })).VirtualCount);
    expect(counts.every((count, i) => i === 0 || count !== counts[i - 1])).toBe(true);
    expect(s.state.listings('bot-demo').length).toBe(counts.at(-1));
  });

  it('is repeatable by seed, and a different seed gives different decisions', async () => {
    const outcomes = async (seed: number) => {
      const s = await sim({ faults: { seed, envelopeFailureRate: 0.5 } });
      const codes: number[] = [];
      for (let i = 0; i < 24; i += 1) codes.push((await call(s, 'listListings', { SerialNumber: 'bot-demo' })).env.Code);
      return codes;
    };
    const first = await outcomes(42);
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await outcomes(42)).toEqual(first);
    expect(await outcomes(43)).not.toEqual(first);
  });

  it('restricts faults to the listed endpoints, and setFaults replaces them at runtime', async () => {
    const s = await sim({ faults: { http503Rate: 1, endpoints: ['createListing'] } });
    expect((await call(s, 'listListings', { SerialNumber: 'bot-demo' })).status).toBe(200);
    expect((await call(s, 'createListing', sampleListing(1))).status).toBe(503);
    s.state.setFaults({ http503Rate: 0 });
    expect((await call(s, 'createListing', sampleListing(1))).env.Data).toBe('1');
  });

  it('counts requests in flight while latency is applied', async () => {
    const s = await sim({ faults: { latencyMs: 150 } });
    await Promise.all(Array.from({ length: 5 }, (_, i) => call(s, 'createListing', sampleListing(i))));
    expect(s.state.maxInFlight()).toBe(5);
    expect(s.state.inFlight()).toBe(0);
    s.state.resetCounters();
    for (let i = 0; i < 3; i += 1) await call(s, 'listListings', { SerialNumber: 'bot-demo' });
    expect(s.state.maxInFlight()).toBe(1);
  });
});

describe('call log and admin view', () => {
  it('counts calls per endpoint and write calls, whatever their outcome', async () => {
    const s = await sim();
    await call(s, 'createListing', sampleListing(1));
    await call(s, 'createListing', { ...sampleListing(2), Status: 'x' });
    await call(s, 'listListings', { SerialNumber: 'bot-demo' });
    await call(s, 'editKnowledge', { serialNumber: 'bot-demo', text: 'hello' });
    expect(s.state.callCounts()).toMatchObject({ createListing: 2, listListings: 1, editKnowledge: 1, deleteListings: 0 });
    expect(s.state.writeCalls()).toBe(3);
    expect(s.state.calls()[1]).toMatchObject({
      endpoint: 'createListing',
      status: 200,
      envelopeCode: 400,
      body: { MLSNumber: 'ML100002' },
    });
    s.state.resetCounters();
    expect(s.state.writeCalls()).toBe(0);
  });

  it('GET /__sim/state and POST /__sim/faults work across processes, without auth', async () => {
    const s = await sim({ listings: { 'bot-demo': [sampleListing(1)] } });
    await call(s, 'listListings', { SerialNumber: 'bot-demo' });
    const state = looseEnvelopeSchema.parse(await (await request(`${s.baseUrl}/__sim/state`)).body.json());
    expect(state.Data).toMatchObject({
      listings: { 'bot-demo': [{ ID: '1', MLSNumber: 'ML100001' }] },
      callCounts: { listListings: 1 },
      maxInFlight: 1,
    });
    const set = await request(`${s.baseUrl}/__sim/faults`, { method: 'POST', body: JSON.stringify({ http503Rate: 1 }) });
    expect(looseEnvelopeSchema.parse(await set.body.json()).Success).toBe(true);
    expect((await call(s, 'listListings', { SerialNumber: 'bot-demo' })).status).toBe(503);
    const bad = await request(`${s.baseUrl}/__sim/faults`, { method: 'POST', body: JSON.stringify({ http503Rate: 2 }) });
    expect(looseEnvelopeSchema.parse(await bad.body.json())).toMatchObject({ Success: false, Code: 400 });
  });
});

describe('sampleListing', () => {
  it('makes valid, deterministic write-shape listings with the documented keys', () => {
    expect(sampleListing(5)).toEqual(sampleListing(5));
    expect(sampleListing(5)).toMatchObject({ MLSNumber: 'ML100005', Url: 'https://example.test/listing/5' });
    for (let i = 0; i < 30; i += 1) expect(listingWriteSchema.safeParse(sampleListing(i)).success).toBe(true);
    expect(sampleListing(5, { City: 'Nowhere' }).City).toBe('Nowhere');
  });
});
