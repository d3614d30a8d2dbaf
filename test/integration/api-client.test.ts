/**
 * The API client over real HTTP. One behaviour suite runs against every target: the simulator
 * always, and a real service when LISTING_SYNC_REAL_BASE_URL and its keys are set (see
 * realTarget). Conditions the simulator cannot produce (bodies that are not JSON, envelope
 * mismatches, stalled answers, refused connections) come from tiny node:http servers here.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiCallEvent, type ApiClientOptions } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { ENDPOINTS, ENDPOINT_NAMES, type EndpointName } from '../../src/api/endpoints.js';
import { isRateLimited, mayHaveReachedService, retryAfterMs } from '../../src/api/errors.js';
import { normaliseReadItem } from '../../src/api/normalise-read.js';
import { isRetryable } from '../../src/api/retry-policy.js';
import type { ListingWrite } from '../../src/domain/listing.js';
import { createLogger } from '../../src/runtime/logger.js';
import { DEFAULT_SIM_RANDOM_CODE, startSimulator, type RunningSimulator, type SimOptions } from '../../src/sim/server.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

// ---------------------------------------------------------------- resources closed after each test

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function client(options: ApiClientOptions): ApiClient {
  const api = createApiClient(options);
  cleanups.push(() => api.close());
  return api;
}

async function simulator(options: SimOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ chatbots: ['bot-a'], ...options });
  cleanups.push(() => sim.close());
  return sim;
}

function simClient(sim: RunningSimulator, extra: Partial<ApiClientOptions> = {}): ApiClient {
  return client({ baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: { ...sim.credentials }, ...extra });
}

/** Awaits a promise that must reject and returns what it rejected with. */
async function failure(promise: Promise<unknown>): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error('expected the call to fail, it succeeded');
}

const runId = randomBytes(3).toString('hex');
let serial = 0;
/** A valid listing with a key no other test (or earlier run on a real service) uses. */
function freshListing(chatbot: string, i = 1, overrides: Partial<ListingWrite> = {}): ListingWrite {
  serial += 1;
  return sampleListing(i, {
    SerialNumber: chatbot,
    MLSNumber: `LSTEST-${runId}-${serial}`,
    Url: `https://example.test/lstest/${runId}/${serial}`,
    ExtensionColumn: [{ Key: 'Pool', value: 'yes' }],
    ...overrides,
  });
}

/** What listing + normaliseReadItem must give back: the write shape minus what the read shape omits. */
function expectedRead(listing: ListingWrite): Partial<ListingWrite> {
  const { SerialNumber: _s, AreaUnit: _a, Location: _l, ...rest } = listing;
  return rest;
}

// ---------------------------------------------------------------- targets of the behaviour suite

interface Target {
  name: string;
  connect(): Promise<{ options: ApiClientOptions; chatbot: string; randomCode: string; sim?: RunningSimulator }>;
}

const simTarget: Target = {
  name: 'simulator',
  async connect() {
    const sim = await simulator();
    return {
      options: { baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: { ...sim.credentials } },
      chatbot: 'bot-a',
      randomCode: DEFAULT_SIM_RANDOM_CODE,
      sim,
    };
  },
};

/**
 * A real service, only when configured: LISTING_SYNC_REAL_BASE_URL, SITE_URL, API_SECRET_KEY
 * and/or API_SESSION_KEY, PROJECT_AUTH_TOKEN, LISTING_SYNC_REAL_CHATBOT (a chatbot kept for
 * tests: the suite edits its settings and creates/deletes LSTEST-* listings) and
 * LISTING_SYNC_REAL_RANDOM_CODE.
 */
function realTarget(env: NodeJS.ProcessEnv): Target | undefined {
  const baseUrl = env.LISTING_SYNC_REAL_BASE_URL?.trim();
  const chatbot = env.LISTING_SYNC_REAL_CHATBOT?.trim();
  if (!baseUrl || !chatbot) return undefined;
  const opt = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    name: 'real service',
    connect: async () => ({
      options: {
        baseUrl,
        siteUrl: opt(env.SITE_URL),
        credentials: {
          secretKey: opt(env.API_SECRET_KEY),
          sessionKey: opt(env.API_SESSION_KEY),
          projectAuthToken: opt(env.PROJECT_AUTH_TOKEN),
        },
      },
      chatbot,
      randomCode: env.LISTING_SYNC_REAL_RANDOM_CODE?.trim() ?? '',
    }),
  };
}

const targets: Target[] = [simTarget, ...[realTarget(process.env)].filter((t): t is Target => t !== undefined)];

describe.each(targets)('ApiClient behaviour against the $name', (target) => {
  it('edits chatbot settings and knowledge (endpoints 1, 2)', async () => {
    const { options, chatbot, sim } = await target.connect();
    const api = client(options);
    expect(await api.editChatbot({ serialNumber: chatbot, WelcomeMessage: `hello ${runId}` })).toBe(1);
    expect(await api.editKnowledge({ serialNumber: chatbot, text: `fact ${runId}` })).toBe(true);
    if (sim) {
      expect(sim.state.chatbotSettings(chatbot)?.WelcomeMessage).toBe(`hello ${runId}`);
      expect(sim.state.knowledge(chatbot)?.text).toBe(`fact ${runId}`);
    }
  });

  it('creates, lists, updates and deletes a listing (endpoints 3–6)', async () => {
    const { options, chatbot } = await target.connect();
    const api = client(options);
    const listing = freshListing(chatbot, 4);
    const id = await api.createListing(listing);
    expect(id).toMatch(/\S/);

    const page = await api.listListings({ SerialNumber: chatbot, MLSNumber: listing.MLSNumber });
    expect(page.VirtualCount).toBe(1);
    expect(page.List).toHaveLength(1);
    const [item] = page.List;
    if (!item) throw new Error('no item');
    expect(String(item.ID)).toBe(id);
    expect(normaliseReadItem(item).fields).toEqual(expectedRead(listing));

    const updated = await api.updateListing({ ...listing, Bedrooms: 9, Key: listing.MLSNumber, KeyType: 'MLSNumber' });
    expect(updated).toBe(1);
    const after = await api.listListings({ SerialNumber: chatbot, MLSNumber: listing.MLSNumber });
    expect(after.List.map((i) => normaliseReadItem(i).fields.Bedrooms)).toEqual([9]);

    expect(await api.deleteListings({ SerialNumber: chatbot, Keys: [listing.MLSNumber], KeyType: 'MLSNumber' })).toBe(1);
    const gone = await api.listListings({ SerialNumber: chatbot, MLSNumber: listing.MLSNumber });
    expect(gone).toEqual({ List: [], VirtualCount: 0 });
  });

  it('lists the project tables (endpoint 7)', async () => {
    const { options, randomCode } = await target.connect();
    const tables = await client(options).listTables(randomCode);
    expect(Array.isArray(tables)).toBe(true);
    for (const table of tables) expect(table.FieldDefinitions.every((f) => typeof f.FieldName === 'string')).toBe(true);
  });

  it('refuses invalid input before sending, listing every field problem', async () => {
    const { options, chatbot, sim } = await target.connect();
    const bad = { ...freshListing(chatbot), Bedrooms: -1, SaleType: 'auction' } as unknown as ListingWrite;
    const err = await failure(client(options).createListing(bad));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/Bedrooms: /);
    expect(err.message).toMatch(/SaleType: /);
    expect(isRetryable(err)).toBe(false);
    if (sim) expect(sim.state.calls()).toEqual([]);
  });

  it("refuses to send a call past its sendBy (a key claim's fence), sending nothing; before it, sends", async () => {
    const { options, chatbot, sim } = await target.connect();
    const api = client(options);
    const listing = freshListing(chatbot, 5);
    const err = await failure(api.createListing(listing, { listingKey: listing.MLSNumber, sendBy: performance.now() - 1 }));
    expect(err.code).toBe(ErrorCode.SEND_WINDOW_PASSED);
    expect(err.message).toContain(listing.MLSNumber);
    if (sim) expect(sim.state.calls()).toEqual([]);
    expect(await api.createListing(listing, { sendBy: performance.now() + 2000 })).toMatch(/\S/);
  });
});

// ---------------------------------------------------------------- scripted servers for what the simulator cannot do

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real node:http server answering with `answer`; every request it got is in `requests`. */
async function scripted(answer: (req: Received, res: ServerResponse) => void): Promise<{ url: string; requests: Received[] }> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      answer(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, requests };
}

function envelope(data: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ Data: data, Version: '1.0', Success: true, Code: 200, Message: '', ...extra });
}

function reply(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Data a well-behaved service answers per endpoint, to record headers with. */
const OK_DATA: Record<EndpointName, unknown> = {
  editChatbot: 1,
  editKnowledge: true,
  createListing: '501',
  updateListing: 1,
  listListings: { List: [], VirtualCount: 0 },
  deleteListings: { SuccessCount: 1 },
  listTables: [],
};

function endpointOf(url: string): EndpointName {
  const name = ENDPOINT_NAMES.find((n) => (n === 'listTables' ? url.startsWith(ENDPOINTS[n].path) : url === ENDPOINTS[n].path));
  if (!name) throw new Error(`unknown path ${url}`);
  return name;
}

/** One call of each endpoint with valid input. */
function callEach(api: ApiClient, chatbot = 'bot-a'): Record<EndpointName, () => Promise<unknown>> {
  const listing = freshListing(chatbot);
  return {
    editChatbot: () => api.editChatbot({ serialNumber: chatbot, Name: 'n' }),
    editKnowledge: () => api.editKnowledge({ serialNumber: chatbot, text: 't' }),
    createListing: () => api.createListing(listing),
    updateListing: () => api.updateListing({ ...listing, Key: listing.MLSNumber, KeyType: 'MLSNumber' }),
    listListings: () => api.listListings({ SerialNumber: chatbot }),
    deleteListings: () => api.deleteListings({ SerialNumber: chatbot, Keys: [listing.MLSNumber], KeyType: 'MLSNumber' }),
    listTables: () => api.listTables(DEFAULT_SIM_RANDOM_CODE),
  };
}

const KEYS = { secretKey: 'test-secret-1', sessionKey: 'test-session-2', projectAuthToken: 'test-project-3' };

describe('authentication (api-spec 5)', () => {
  const cases: Array<[string, ApiClientOptions['credentials'], EndpointName[], Record<string, string | undefined>]> = [
    [
      '1, 2: Authorization only, even with a session key',
      KEYS,
      ['editChatbot', 'editKnowledge'],
      { authorization: KEYS.secretKey, 'chatrobot-sessionkey': undefined, customauth: undefined },
    ],
    [
      '5: chatrobot-sessionkey only',
      KEYS,
      ['listListings'],
      { authorization: undefined, 'chatrobot-sessionkey': KEYS.sessionKey, customauth: undefined },
    ],
    [
      '7: customauth only',
      KEYS,
      ['listTables'],
      { authorization: undefined, 'chatrobot-sessionkey': undefined, customauth: KEYS.projectAuthToken },
    ],
    [
      '3, 4, 6 with both keys: both headers',
      KEYS,
      ['createListing', 'updateListing', 'deleteListings'],
      { authorization: KEYS.secretKey, 'chatrobot-sessionkey': KEYS.sessionKey },
    ],
    [
      '3, 4, 6 with the secret key only: Authorization',
      { secretKey: KEYS.secretKey },
      ['createListing', 'updateListing', 'deleteListings'],
      { authorization: KEYS.secretKey, 'chatrobot-sessionkey': undefined },
    ],
    [
      '3, 4, 6 with the session key only: chatrobot-sessionkey',
      { sessionKey: KEYS.sessionKey },
      ['createListing', 'updateListing', 'deleteListings'],
      { authorization: undefined, 'chatrobot-sessionkey': KEYS.sessionKey },
    ],
  ];

  it.each(cases)('%s', async (_label, credentials, endpoints, expected) => {
    const server = await scripted((req, res) => reply(res, 200, envelope(OK_DATA[endpointOf(req.url)])));
    const api = client({ baseUrl: server.url, siteUrl: server.url, credentials });
    const calls = callEach(api);
    for (const endpoint of endpoints) await calls[endpoint]();
    expect(server.requests.map((r) => endpointOf(r.url))).toEqual(endpoints);
    for (const request of server.requests) {
      for (const [header, value] of Object.entries(expected)) expect(request.headers[header]).toBe(value);
      expect(request.headers['content-type']).toBe('application/json');
    }
  });

  it('sends the method and path of each endpoint, and the random code in the table path', async () => {
    const server = await scripted((req, res) => reply(res, 200, envelope(OK_DATA[endpointOf(req.url)])));
    const calls = callEach(client({ baseUrl: `${server.url}/`, siteUrl: server.url, credentials: KEYS }));
    for (const endpoint of ENDPOINT_NAMES) await calls[endpoint]();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      ENDPOINT_NAMES.map((n) => `${ENDPOINTS[n].method} ${ENDPOINTS[n].path}${n === 'listTables' ? DEFAULT_SIM_RANDOM_CODE : ''}`),
    );
  });

  const missing: Array<[EndpointName, ApiClientOptions['credentials'], string]> = [
    ['editChatbot', { sessionKey: 's', projectAuthToken: 'p' }, 'API_SECRET_KEY'],
    ['editKnowledge', { sessionKey: 's', projectAuthToken: 'p' }, 'API_SECRET_KEY'],
    ['createListing', { projectAuthToken: 'p' }, 'set API_SECRET_KEY or API_SESSION_KEY'],
    ['updateListing', { secretKey: '', sessionKey: '  ' }, 'set API_SECRET_KEY or API_SESSION_KEY'],
    ['deleteListings', {}, 'set API_SECRET_KEY or API_SESSION_KEY'],
    ['listListings', { secretKey: 's', projectAuthToken: 'p' }, 'API_SESSION_KEY'],
    ['listTables', { secretKey: 's', sessionKey: 's' }, 'PROJECT_AUTH_TOKEN'],
  ];

  it.each(missing)('%s without its credential fails with MISSING_CREDENTIAL and sends nothing', async (endpoint, credentials, envVar) => {
    const sim = await simulator();
    const err = await failure(callEach(simClient(sim, { credentials }))[endpoint]());
    expect(err.code).toBe('MISSING_CREDENTIAL');
    expect(err.message).toContain(envVar);
    expect(err.details.endpoint).toBe(endpoint);
    expect(isRetryable(err)).toBe(false);
    expect(Object.values(sim.state.callCounts()).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('the simulator accepts creates authenticated by either key alone', async () => {
    const sim = await simulator();
    await simClient(sim, { credentials: { secretKey: sim.credentials.secretKey } }).createListing(freshListing('bot-a'));
    await simClient(sim, { credentials: { sessionKey: sim.credentials.sessionKey } }).createListing(freshListing('bot-a'));
    expect(sim.state.listings('bot-a')).toHaveLength(2);
  });

  it('a wrong key is AUTH_FAILED (HTTP 401), not retryable, and the key is in no message', async () => {
    const sim = await simulator();
    const err = await failure(
      simClient(sim, { credentials: { ...sim.credentials, sessionKey: 'wrong-session-value' } }).listListings({ SerialNumber: 'bot-a' }),
    );
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.details.status).toBe(401);
    expect(isRetryable(err)).toBe(false);
    expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain('wrong-session-value');
  });

  it('an envelope Code 403 on HTTP 200 is AUTH_FAILED too', async () => {
    const server = await scripted((_req, res) => reply(res, 200, envelope(null, { Success: false, Code: 403, Message: 'forbidden' })));
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).editChatbot({ serialNumber: 'b' }));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.details).toMatchObject({ envelopeCode: 403, envelopeMessage: 'forbidden' });
    expect(isRetryable(err)).toBe(false);
  });
});

describe('read-shape forms round-trip through normaliseReadItem', () => {
  const forms: Array<NonNullable<SimOptions['readForms']>> = [
    { saleType: 'snake', images: 'json' },
    { saleType: 'title', images: 'comma' },
    { saleType: 'lower', images: 'semicolon' },
    { saleType: 'short', images: 'json' },
  ];

  it.each(forms)('SaleType $saleType, Images $images', async (readForms) => {
    const sim = await simulator({ readForms });
    const api = simClient(sim);
    const sent = [
      freshListing('bot-a', 0), // for sale
      freshListing('bot-a', 2, { Tours: 'OpenHouse', SpaceType: 'Room', Status: 'PreOnMarket', HOAMonth: 55 }), // for rent
    ];
    for (const listing of sent) await api.createListing(listing);
    const page = await api.listListings({ SerialNumber: 'bot-a', PageSize: 10 });
    const read = page.List.map(normaliseReadItem);
    expect(read.map((r) => r.fields)).toEqual(sent.map(expectedRead));
    expect(read.map((r) => r.id)).toEqual(sim.state.listings('bot-a').map((l) => l.ID));
  });
});

describe('injected faults', () => {
  it('HTTP 503 is HTTP_STATUS, retryable, may have reached the service', async () => {
    const sim = await simulator({ faults: { http503Rate: 1 } });
    const err = await failure(simClient(sim).createListing(freshListing('bot-a')));
    expect(err.code).toBe('HTTP_STATUS');
    expect(err.details.status).toBe(503);
    expect(err.message).toMatch(/^createListing \(listing LSTEST-/);
    expect(isRetryable(err)).toBe(true);
    expect(mayHaveReachedService(err)).toBe(true);
  });

  it('envelope Code 500 is ENVELOPE_FAILURE and retryable', async () => {
    const sim = await simulator({ faults: { envelopeFailureRate: 1 } });
    const err = await failure(simClient(sim).listListings({ SerialNumber: 'bot-a' }));
    expect(err.code).toBe('ENVELOPE_FAILURE');
    expect(err.details).toMatchObject({ status: 200, envelopeCode: 500, envelopeMessage: 'Internal error, try again' });
    expect(isRetryable(err)).toBe(true);
  });

  it('429 is rate limited with retryAfterMs 1000', async () => {
    const sim = await simulator({ faults: { rateLimitRate: 1 } });
    const err = await failure(simClient(sim).updateListing({ ...freshListing('bot-a'), Key: 'x', KeyType: 'MLSNumber' }));
    expect(err.code).toBe('HTTP_STATUS');
    expect(err.details).toMatchObject({ status: 429, envelopeCode: 429, retryAfterMs: 1000 });
    expect(isRateLimited(err)).toBe(true);
    expect(retryAfterMs(err)).toBe(1000);
    expect(isRetryable(err)).toBe(true);
  });

  it('commit-then-drop is NETWORK, may have reached the service, and the listing is there', async () => {
    const sim = await simulator({ faults: { commitThenDropRate: 1, endpoints: ['createListing'] } });
    const listing = freshListing('bot-a');
    const err = await failure(simClient(sim).createListing(listing));
    expect(err.code).toBe('NETWORK');
    expect(err.details.causeCode).toBe('UND_ERR_SOCKET');
    expect(mayHaveReachedService(err)).toBe(true);
    expect(isRetryable(err)).toBe(true);
    expect(sim.state.listings('bot-a').map((l) => l.MLSNumber)).toEqual([listing.MLSNumber]);
  });

  it('drift shows VirtualCount changing between reads', async () => {
    const seeded = [1, 2, 3, 4, 5].map((i) => sampleListing(i, { SerialNumber: 'bot-a' }));
    const sim = await simulator({ listings: { 'bot-a': seeded }, faults: { seed: 7, driftRate: 1 } });
    const api = simClient(sim);
    const first = await api.listListings({ SerialNumber: 'bot-a' });
    const second = await api.listListings({ SerialNumber: 'bot-a' });
    expect(first.VirtualCount).not.toBe(5);
    expect(second.VirtualCount).not.toBe(first.VirtualCount);
  });

  it('a business rejection (unknown chatbot, PageSize over the maximum) is ENVELOPE_FAILURE, not retryable', async () => {
    const sim = await simulator({ maxPageSize: 50 });
    const api = simClient(sim);
    const unknown = await failure(api.listListings({ SerialNumber: 'no-such-bot' }));
    expect(unknown).toMatchObject({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 404 } });
    const tooBig = await failure(api.listListings({ SerialNumber: 'bot-a', PageSize: 51 }));
    expect(tooBig).toMatchObject({ code: 'ENVELOPE_FAILURE', details: { envelopeCode: 400 } });
    expect(tooBig.message).toContain('PageSize');
    expect([unknown, tooBig].map((e) => isRetryable(e))).toEqual([false, false]);
    expect([unknown, tooBig].map((e) => mayHaveReachedService(e))).toEqual([false, false]);
  });
});

describe('answers the simulator cannot give', () => {
  it('a 200 that is not JSON (proxy HTML page) is INVALID_JSON, retryable', async () => {
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    });
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).editChatbot({ serialNumber: 'b' }));
    expect(err.code).toBe('INVALID_JSON');
    expect(isRetryable(err)).toBe(true);
  });

  it('an HTML error page with HTTP 502 is HTTP_STATUS, and a Retry-After date is read', async () => {
    const later = new Date(Date.now() + 60_000).toUTCString();
    const server = await scripted((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'retry-after': later });
      res.end('<html>502</html>');
    });
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).listListings({ SerialNumber: 'b' }));
    expect(err.code).toBe('HTTP_STATUS');
    expect(err.details.status).toBe(502);
    expect(retryAfterMs(err)).toBeGreaterThan(50_000);
    expect(isRetryable(err)).toBe(true);
  });

  it('HTTP 400 is HTTP_STATUS, not retryable, and carries the envelope the body held', async () => {
    const server = await scripted((_req, res) => reply(res, 400, envelope(null, { Success: false, Code: 400, Message: 'bad thing' })));
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).editKnowledge({ serialNumber: 'b' }));
    expect(err).toMatchObject({ code: 'HTTP_STATUS', details: { status: 400, envelopeCode: 400, envelopeMessage: 'bad thing' } });
    expect(isRetryable(err)).toBe(false);
  });

  it('an envelope that misses members is CONTRACT_MISMATCH naming them', async () => {
    const server = await scripted((_req, res) => reply(res, 200, JSON.stringify({ Data: 1, Success: true })));
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).editChatbot({ serialNumber: 'b' }));
    expect(err.code).toBe('CONTRACT_MISMATCH');
    expect(err.message).toContain('envelope.Code');
    expect(err.message).toContain('envelope.Version');
    expect(isRetryable(err)).toBe(false);
  });

  it('Data of the wrong shape is CONTRACT_MISMATCH naming the member', async () => {
    const server = await scripted((_req, res) => reply(res, 200, envelope({ List: [{ ID: 'x' }], VirtualCount: 1 })));
    const err = await failure(client({ baseUrl: server.url, credentials: KEYS }).listListings({ SerialNumber: 'b' }));
    expect(err.code).toBe('CONTRACT_MISMATCH');
    expect(err.message).toContain('Data.List[0].ID');
    expect(isRetryable(err)).toBe(false);
  });

  it('no answer within headersMs is TIMEOUT (headers), retryable, may have reached the service', async () => {
    const server = await scripted(() => undefined);
    const api = client({ baseUrl: server.url, credentials: KEYS, timeouts: { headersMs: 200 } });
    const err = await failure(api.createListing(freshListing('b')));
    expect(err).toMatchObject({ code: 'TIMEOUT', details: { timeout: 'headers', causeCode: 'UND_ERR_HEADERS_TIMEOUT' } });
    expect(isRetryable(err)).toBe(true);
    expect(mayHaveReachedService(err)).toBe(true);
  });

  it('a body that stalls beyond bodyMs is TIMEOUT (body)', async () => {
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"Data":');
    });
    const api = client({ baseUrl: server.url, credentials: KEYS, timeouts: { bodyMs: 200 } });
    const err = await failure(api.editChatbot({ serialNumber: 'b' }));
    expect(err).toMatchObject({ code: 'TIMEOUT', details: { timeout: 'body' } });
    expect(mayHaveReachedService(err)).toBe(true);
  });

  it('connection refused is NETWORK, retryable, and cannot have reached the service', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await failure(client({ baseUrl: `http://127.0.0.1:${address.port}`, credentials: KEYS }).createListing(freshListing('b')));
    expect(err).toMatchObject({ code: 'NETWORK', details: { causeCode: 'ECONNREFUSED', phase: 'connect' } });
    expect(isRetryable(err)).toBe(true);
    expect(mayHaveReachedService(err)).toBe(false);
  });
});

describe('abort, limits, logging', () => {
  it('an aborted signal ends the call with ABORTED; an already-aborted one sends nothing', async () => {
    const server = await scripted(() => undefined);
    const api = client({ baseUrl: server.url, credentials: KEYS });
    const controller = new AbortController();
    const pending = failure(api.listListings({ SerialNumber: 'bot-a' }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    const err = await pending;
    expect(err).toMatchObject({ code: 'ABORTED', details: { phase: 'sent' } });
    expect(server.requests).toHaveLength(1);
    const before = await failure(api.listListings({ SerialNumber: 'bot-a' }, { signal: AbortSignal.abort() }));
    expect(before).toMatchObject({ code: 'ABORTED', details: { phase: 'before' } });
    expect(mayHaveReachedService(before)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(1);
  });

  it('without siteUrl the table listing fails with MISSING_CONFIG naming SITE_URL', async () => {
    const err = await failure(client({ baseUrl: 'http://127.0.0.1:9', credentials: KEYS }).listTables('x'));
    expect(err.code).toBe('MISSING_CONFIG');
    expect(err.message).toContain('SITE_URL');
  });

  it('keeps at most `connections` requests in flight to the service', async () => {
    const sim = await simulator({ faults: { latencyMs: 100 } });
    const api = simClient(sim, { connections: 2 });
    await Promise.all(Array.from({ length: 8 }, () => api.listListings({ SerialNumber: 'bot-a' })));
    expect(sim.state.maxInFlight()).toBe(2);
  });

  it('a throwing onCall hook does not turn a committed create into a failure', async () => {
    const sim = await simulator();
    const api = simClient(sim, {
      onCall: () => {
        throw new Error('metrics down');
      },
    });
    await expect(api.createListing(freshListing('bot-a'))).resolves.toMatch(/\S/);
    expect(sim.state.listings('bot-a')).toHaveLength(1);
  });

  it('logs one debug line and one onCall event per call, with no secret anywhere', async () => {
    const sim = await simulator({
      credentials: { secretKey: 'SECRET-aaaa-1111', sessionKey: 'SESSION-bbbb-2222', projectAuthToken: 'PROJECT-cccc-3333' },
    });
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    const events: ApiCallEvent[] = [];
    const api = simClient(sim, { logger: createLogger({ level: 'debug', destination }), onCall: (e) => events.push(e) });
    await api.listListings({ SerialNumber: 'bot-a' });
    await failure(api.listListings({ SerialNumber: 'no-such-bot' }));
    await failure(
      simClient(sim, {
        credentials: { sessionKey: 'SESSION-wrong-9999' },
        logger: createLogger({ level: 'debug', destination }),
      }).listListings({ SerialNumber: 'bot-a' }),
    );
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.map((l) => [l.endpoint, l.status, l.envelopeCode, l.outcome])).toEqual([
      ['listListings', 200, 200, 'ok'],
      ['listListings', 200, 404, 'ENVELOPE_FAILURE'],
      ['listListings', 401, 401, 'AUTH_FAILED'],
    ]);
    expect(logged.every((l) => typeof l.ms === 'number')).toBe(true);
    expect(events.map((e) => [e.endpoint, e.outcome, e.envelopeCode])).toEqual([
      ['listListings', 'ok', 200],
      ['listListings', 'ENVELOPE_FAILURE', 404],
    ]);
    const all = lines.join('\n');
    for (const secret of ['SECRET-aaaa-1111', 'SESSION-bbbb-2222', 'PROJECT-cccc-3333', 'SESSION-wrong-9999'])
      expect(all).not.toContain(secret);
  });
});
