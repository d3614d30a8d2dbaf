/**
 * The RESO Web API simulator over real HTTP (undici `request`): OAuth2 client credentials,
 * bearer checks with expiry and early revocation, paging by $skip with $top as a page size (the
 * OData paging modes are in reso-sim-paging.test.ts), $filter/$orderby/$select/$expand/$count, Media, the budget that suspends, faults, and
 * the admin routes that change records with chosen timestamps.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startResoSimulator, type ResoMedia, type ResoSimOptions, type RunningResoSimulator } from '../../src/sim/reso/server.js';
import { readFeedWith } from '../helpers/feed.js';

let sims: RunningResoSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function sim(options: ResoSimOptions = {}): Promise<RunningResoSimulator> {
  const started = await startResoSimulator({ port: 0, ...options });
  sims.push(started);
  return started;
}

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2024-05-01T12:00:00.000Z')): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

type Row = Record<string, unknown>;
interface Page {
  '@odata.context': string;
  '@odata.count'?: number;
  '@odata.nextLink'?: string;
  value: Row[];
}
interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const res = await request(url, { method: 'POST', headers, body });
  return { status: res.statusCode, headers: res.headers, body: await res.body.json() };
}

async function tokenOf(s: RunningResoSimulator): Promise<string> {
  const answer = await post(s.tokenUrl, 'grant_type=client_credentials', {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: basic(s.credentials.clientId, s.credentials.clientSecret),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { access_token: string }).access_token;
}

/** GET a resource: `target` is a full URL (a nextLink) or a path under /odata. */
async function get<T = Page>(s: RunningResoSimulator, target: string, token?: string): Promise<Answer<T>> {
  const url = target.startsWith('http') ? target : `${s.serviceUrl}/${target}`;
  const res = await request(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as T };
}

async function page(s: RunningResoSimulator, target: string, token: string): Promise<Page> {
  const answer = await get(s, target, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function admin<T = Row>(s: RunningResoSimulator, route: string, body?: unknown): Promise<Answer<T>> {
  const url = `${s.baseUrl}/__reso/${route}`;
  if (body === undefined) {
    const res = await request(url);
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as T };
  }
  return (await post(url, JSON.stringify(body), { 'content-type': 'application/json' })) as Answer<T>;
}

/** Pulls every page: by nextLink when the server gives one, else by $skip until a short page. */
async function pullAll(
  s: RunningResoSimulator,
  token: string,
  query: string,
  pageSize: number,
): Promise<{ rows: Row[]; requests: number }> {
  const rows: Row[] = [];
  let requests = 0;
  let next: string | undefined = `Property?${query}&$top=${pageSize}`;
  while (next !== undefined) {
    const body = await page(s, next, token);
    requests += 1;
    rows.push(...body.value);
    if (body['@odata.nextLink'] !== undefined) next = body['@odata.nextLink'];
    else next = body.value.length < pageSize ? undefined : `Property?${query}&$top=${pageSize}&$skip=${rows.length}`;
  }
  return { rows, requests };
}

const keysOf = (rows: readonly Row[]): unknown[] => rows.map((row) => row.ListingKey);
const odataMessage = (answer: Answer): string => (answer.body as { error: { message: string } }).error.message;

describe('OAuth2 client credentials', () => {
  it('issues Bearer tokens for basic auth or form-body credentials; refuses wrong ones without echoing them', async () => {
    const s = await sim({ tokenTtlSeconds: 300 });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const byBasic = await post(s.tokenUrl, 'grant_type=client_credentials', {
      ...form,
      authorization: basic(s.credentials.clientId, s.credentials.clientSecret),
    });
    expect(byBasic.status).toBe(200);
    expect(byBasic.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 300 });
    const inBody = `grant_type=client_credentials&client_id=${s.credentials.clientId}&client_secret=${s.credentials.clientSecret}&scope=api`;
    expect((await post(s.tokenUrl, inBody, form)).status).toBe(200);

    const wrong = await post(s.tokenUrl, 'grant_type=client_credentials', {
      ...form,
      authorization: basic(s.credentials.clientId, 'leaked-secret-42'),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client' });
    expect(JSON.stringify(wrong.body)).not.toContain('leaked-secret-42');
    expect((await post(s.tokenUrl, 'grant_type=password', { ...form, authorization: basic('a', 'b') })).body).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect((await post(s.tokenUrl, '{}', { 'content-type': 'application/json' })).body).toMatchObject({ error: 'invalid_request' });
    expect(s.state.counters().tokensIssued).toBe(2);
  });

  it('answers 401 without a token, with an unknown one, an expired one and a revoked one', async () => {
    const clock = manualClock();
    const s = await sim({ now: clock.now, tokenTtlSeconds: 60, records: 3 });
    expect(odataMessage(await get(s, 'Property'))).toContain('bearer token is required');
    expect((await get(s, 'Property', 'made-up')).status).toBe(401);

    const token = await tokenOf(s);
    expect((await get(s, 'Property', token)).status).toBe(200);
    clock.advance(60_000);
    const expired = await get(s, 'Property', token);
    expect([expired.status, odataMessage(expired)]).toEqual([401, 'the bearer token has expired']);
    expect(expired.headers['www-authenticate']).toContain('invalid_token');

    const fresh = await tokenOf(s);
    expect((await get(s, 'Property', fresh)).status).toBe(200);
    expect((await admin(s, 'revoke-tokens', {})).body).toEqual({ revoked: 1 });
    expect(odataMessage(await get(s, 'Property', fresh))).toBe('the bearer token was revoked');
    expect((await get(s, 'Property', await tokenOf(s))).status).toBe(200);
    expect(s.state.counters().unauthorized).toBe(4);
  });

  it('revokes a token server-side before its expires_in runs out (fault tokenRevokeAfterMs)', async () => {
    const clock = manualClock();
    const s = await sim({ now: clock.now, tokenTtlSeconds: 3600, faults: { tokenRevokeAfterMs: 10_000 }, records: 1 });
    const token = await tokenOf(s);
    clock.advance(9_999);
    expect((await get(s, 'Property', token)).status).toBe(200);
    clock.advance(1);
    expect(odataMessage(await get(s, 'Property', token))).toBe('the bearer token was revoked');
  });
});

describe('paging', () => {
  it('pages by $skip when nextLink is off and $top is a page size (switched on a running server)', async () => {
    const s = await sim({ maxTop: 10, records: 25 });
    const token = await tokenOf(s);
    expect((await admin(s, 'config', { nextLink: false, topSemantics: 'pageSize' })).body).toMatchObject({ nextLink: false, maxTop: 10 });
    const first = await page(s, 'Property?$top=10', token);
    expect(first['@odata.nextLink']).toBeUndefined();
    const { rows, requests } = await pullAll(s, token, '$orderby=ListingKey', 10);
    expect(requests).toBe(3);
    expect(keysOf(rows)).toEqual(s.state.records.list().map((record) => record.property.ListingKey));
  });

  it('counts with $count=true, before $skip and $top; $top=0 answers the count alone', async () => {
    const s = await sim({ records: 12 });
    const token = await tokenOf(s);
    const counted = await page(s, 'Property?$count=true&$top=0', token);
    expect(counted).toMatchObject({ '@odata.count': 12, value: [] });
    expect(counted['@odata.nextLink']).toBeUndefined();
    expect((await page(s, 'Property?$count=true&$skip=10', token))['@odata.count']).toBe(12);
    expect((await page(s, 'Property', token))['@odata.count']).toBeUndefined();
  });

  it('keeps records stamped alike across a page boundary in key order, and filters by the key tie-break', async () => {
    const s = await sim({ maxTop: 5 });
    const same = '2024-05-01T10:00:00.000Z';
    await admin(s, 'seed', { count: 3, startAt: '2024-05-01T09:00:00.000Z' });
    const alike = (await admin<{ keys: string[] }>(s, 'seed', { count: 9, timestamp: same })).body.keys;
    await admin(s, 'seed', { count: 2, startAt: '2024-05-01T11:00:00.000Z' });
    const token = await tokenOf(s);
    const { rows } = await pullAll(s, token, '$orderby=ModificationTimestamp,ListingKey', 5);
    expect(keysOf(rows.filter((row) => row.ModificationTimestamp === same))).toEqual(alike);
    expect(new Set(keysOf(rows)).size).toBe(14);

    // Resume after the 4th record of the tie, as a client that stopped mid-tie does.
    const after = alike[3] ?? '';
    const rest = await page(s, `Property?$filter=ModificationTimestamp eq ${same} and ListingKey gt '${after}'&$orderby=ListingKey`, token);
    expect(keysOf(rest.value)).toEqual(alike.slice(4, 9));
    const reversed = await pullAll(s, token, '$orderby=ModificationTimestamp desc,ListingKey desc', 5);
    expect(keysOf(reversed.rows)).toEqual(keysOf(rows).reverse());
  });
});

describe('$filter, $select, $orderby', () => {
  it('compares ModificationTimestamp exactly: ge includes a record stamped at the instant, gt does not', async () => {
    const s = await sim();
    const keys = (await admin<{ keys: string[] }>(s, 'seed', { count: 5, startAt: '2024-05-01T00:00:00.000Z', stepMs: 1000 })).body.keys;
    const token = await tokenOf(s);
    const pick = async (filter: string): Promise<unknown[]> =>
      keysOf((await page(s, `Property?$filter=${encodeURIComponent(filter)}`, token)).value);
    expect(await pick('ModificationTimestamp ge 2024-05-01T00:00:02.000Z')).toEqual(keys.slice(2));
    expect(await pick('ModificationTimestamp gt 2024-05-01T00:00:02.000Z')).toEqual(keys.slice(3));
    expect(await pick('ModificationTimestamp gt 2024-05-01T00:00:01.9999999Z')).toEqual(keys.slice(2));
    expect(await pick('ModificationTimestamp ge 2024-05-01T00:00:02.0000001Z')).toEqual(keys.slice(3));
    expect(await pick('ModificationTimestamp eq 2024-05-01T02:00:02+02:00')).toEqual([keys[2]]);
    expect(await pick('ModificationTimestamp le 2024-05-01T00:00:01.000Z')).toEqual(keys.slice(0, 2));
    expect(await pick('ModificationTimestamp lt 2024-05-01T00:00:01.000Z')).toEqual(keys.slice(0, 1));
    expect(await pick('(ModificationTimestamp ge 2024-05-01T00:00:01Z) and ModificationTimestamp lt 2024-05-01T00:00:04Z')).toEqual(
      keys.slice(1, 4),
    );
  });

  it('refuses what it does not support with 400 and a message that says what it accepts', async () => {
    const s = await sim({ records: 2 });
    const token = await tokenOf(s);
    const refused = async (query: string): Promise<string> => {
      const answer = await get(s, `Property?${query}`, token);
      expect(answer.status).toBe(400);
      return odataMessage(answer);
    };
    const stamp = '2024-05-01T00:00:00.000Z';
    expect(await refused(`$filter=not ModificationTimestamp ge ${stamp}`)).toContain("'not' is not supported");
    expect(await refused("$filter=City eq 'Boulder'")).toBe(
      "$filter: cannot filter on 'City' (filterable: ModificationTimestamp, PhotosChangeTimestamp, ListingKey)",
    );
    expect(await refused(`$filter=ModificationTimestamp ge '${stamp}'`)).toContain('unquoted DateTimeOffset');
    expect(await refused('$filter=ModificationTimestamp ge 2024-02-31T00:00:00Z')).toContain('unquoted DateTimeOffset');
    expect(await refused("$filter=contains(ListingKey,'K')")).toContain('functions such as contains() are not supported');
    expect(await refused(`$filter=ModificationTimestamp ne ${stamp}`)).toContain(
      "ModificationTimestamp supports eq, gt, ge, lt, le (got 'ne')",
    );
    expect(await refused('$orderby=ListPrice desc')).toContain("cannot order Property by 'ListPrice'");
    expect(await refused('$top=-1')).toContain('$top must be a whole number');
    expect(await refused('$select=ListingKey,Nope')).toContain("unknown 'Nope'");
    expect(await refused('$expand=Office')).toContain("unknown 'Office'");
    expect(await refused('$search=pool')).toContain('query option $search is not supported');
    expect(s.state.counters().badRequests).toBe(11);
  });

  it('answers only the $select-ed members, plus Media when expanded', async () => {
    const s = await sim({ records: 3 });
    const token = await tokenOf(s);
    const selected = await page(s, 'Property?$select=ListingKey,ModificationTimestamp', token);
    expect(selected['@odata.context']).toBe(`${s.serviceUrl}/$metadata#Property(ListingKey,ModificationTimestamp)`);
    for (const row of selected.value) expect(Object.keys(row)).toEqual(['ListingKey', 'ModificationTimestamp']);
    const withMedia = await page(s, 'Property?$select=ListingKey&$expand=Media', token);
    for (const row of withMedia.value) expect(Object.keys(row)).toEqual(['ListingKey', 'Media']);
  });
});

describe('Media', () => {
  const byOrder = (media: readonly ResoMedia[]): string[] => [...media].sort((a, b) => a.Order - b.Order).map((photo) => photo.MediaURL);

  it('expands Media (not sorted by Order: a client must sort) and serves the Media resource by ResourceRecordKey', async () => {
    const s = await sim({ seed: 3 });
    const [first = '', second = ''] = (await admin<{ keys: string[] }>(s, 'seed', { count: 2, photos: 6 })).body.keys;
    const token = await tokenOf(s);
    const rows = (await page(s, 'Property?$expand=Media', token)).value;
    const media = rows.map((row) => row.Media as ResoMedia[]);
    expect(media.map((photos) => photos.length)).toEqual([6, 6]);
    expect(rows.map((row) => row.PhotosCount)).toEqual([6, 6]);
    expect(media.some((photos) => photos.map((photo) => photo.Order).join() !== '1,2,3,4,5,6')).toBe(true);
    expect(byOrder(media[0] ?? [])[0]).toMatch(new RegExp(`/${first}/\\d+-1\\.jpg$`));

    const one = await page(s, `Media?$filter=ResourceRecordKey eq '${second}'`, token);
    expect(one.value.map((photo) => photo.Order)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(one.value.map((photo) => photo.MediaURL)).toEqual(byOrder(media[1] ?? []));
    const both = await page(
      s,
      `Media?$filter=ResourceRecordKey in ('${first}','${second}')&$select=ResourceRecordKey,Order&$count=true`,
      token,
    );
    expect(both['@odata.count']).toBe(12);
    expect(both.value[0]).toEqual({ ResourceRecordKey: first, Order: 1 });
    expect(s.state.counters()).toMatchObject({ recordsServed: 2, mediaServed: 18 });
  });

  it('refuses $expand=Media with 400 when configured so; the Media resource still answers', async () => {
    const s = await sim({ expandMedia: false, records: 2 });
    const token = await tokenOf(s);
    const refused = await get(s, 'Property?$expand=Media', token);
    expect([refused.status, odataMessage(refused)]).toEqual([
      400,
      expect.stringContaining('read photos from the Media resource') as unknown,
    ]);
    const [record] = s.state.records.list();
    const photos = await page(s, `Media?$filter=ResourceRecordKey eq '${record?.property.ListingKey}'`, token);
    expect(photos.value).toHaveLength(record?.media.length ?? -1);
  });
});

describe('request budget', () => {
  it('suspends a client that exceeds its requests per second: 429 from then on, until an admin reset', async () => {
    const clock = manualClock();
    const s = await sim({ now: clock.now, budget: { perSecond: 2, perHour: 100 }, records: 1 });
    const token = await tokenOf(s);
    expect((await get(s, 'Property', token)).status).toBe(200);
    clock.advance(999);
    expect((await get(s, 'Property', token)).status).toBe(200);
    const over = await get(s, 'Property', token);
    expect(over.status).toBe(429);
    expect(odataMessage(over)).toContain('client suspended: 3 requests in one second (budget 2/s)');
    clock.advance(3_600_000);
    expect((await get(s, 'Property', token)).status).toBe(429);
    expect(s.state.suspended()).toContain('budget 2/s');
    expect(s.state.counters()).toMatchObject({ requests: 4, tooManyRequests: 2, maxPerSecond: 3 });

    expect((await admin(s, 'reset', { counters: false })).body).toMatchObject({ suspended: null });
    const renewed = await tokenOf(s);
    expect((await get(s, 'Property', renewed)).status).toBe(200);
    clock.advance(1000);
    expect((await get(s, 'Property', renewed)).status).toBe(200);
  });

  it('counts every request in rolling windows: two a second for an hour is within 2/s but not 7000/h', async () => {
    const clock = manualClock();
    const s = await sim({ now: clock.now, budget: { perSecond: 2, perHour: 7 }, records: 1 });
    const token = await tokenOf(s);
    for (let index = 0; index < 7; index += 1) {
      expect((await get(s, 'Property', token)).status).toBe(200);
      clock.advance(500);
    }
    expect(odataMessage(await get(s, 'Property', token))).toContain('8 requests in one hour (budget 7/h)');
    expect(s.state.counters().maxPerSecond).toBe(2);
  });

  it('serves the answer that crosses the bytes-per-hour budget, then suspends', async () => {
    const s = await sim({ records: 20 });
    const token = await tokenOf(s);
    expect((await get(s, 'Property?$top=5', token)).status).toBe(200);
    const pageBytes = s.state.counters().bytesServed;
    // A budget set on a running server keeps the window counted so far: one page is in it.
    await admin(s, 'config', { budget: { bytesPerHour: Math.floor(pageBytes * 1.5) } });
    expect((await get(s, 'Property?$top=5', token)).status).toBe(200);
    expect(odataMessage(await get(s, 'Property?$top=5', token))).toContain(`${pageBytes * 2} bytes in one hour`);
  });
});

describe('faults', () => {
  it('answers scripted statuses first (429 with Retry-After, then 503), without suspending', async () => {
    const s = await sim({ records: 1, faults: { nextStatuses: [429, 503], retryAfterSeconds: 2 } });
    const token = await tokenOf(s);
    const limited = await get(s, 'Property', token);
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '2']);
    expect((await get(s, 'Property', token)).status).toBe(503);
    expect((await get(s, 'Property', token)).status).toBe(200);
    expect(s.state.suspended()).toBeUndefined();
    expect(s.state.counters()).toMatchObject({ tooManyRequests: 1, serverErrors: 1 });
  });

  it('injects 429 and 5xx at seeded rates: the same seed gives the same sequence', async () => {
    const statuses = async (): Promise<number[]> => {
      const s = await sim({ records: 1, faults: { seed: 9, rateLimitRate: 0.3, serverErrorRate: 0.3, serverErrorStatus: 502 } });
      const token = await tokenOf(s);
      const seen: number[] = [];
      for (let index = 0; index < 20; index += 1) seen.push((await get(s, 'Property', token)).status);
      return seen;
    };
    const first = await statuses();
    expect(new Set(first)).toEqual(new Set([200, 429, 502]));
    expect(await statuses()).toEqual(first);
  });
});

describe('admin routes', () => {
  it('modifies, withdraws, expires, cancels, hides and removes records with chosen timestamps; an incremental pull sees exactly those', async () => {
    const s = await sim({ records: 10 });
    const keys = s.state.records.list().map((record) => record.property.ListingKey);
    const [a = '', b = '', c = '', d = '', e = '', f = ''] = keys;
    const before = s.state.records.get(a)?.property.ListPrice ?? 0;
    const stamp = '2030-01-01T00:00:00.000Z';
    const modified = await admin<{ records: Row[] }>(s, 'modify', { keys: [a], timestamp: stamp });
    expect(modified.body.records[0]).toMatchObject({ ListingKey: a, ListPrice: before + 1000, ModificationTimestamp: stamp });
    await admin(s, 'modify', { keys: [b], timestamp: '2030-01-01T00:00:01.000Z', changes: { PublicRemarks: 'New roof.' } });
    await admin(s, 'withdraw', { keys: [c], timestamp: '2030-01-01T00:00:02.000Z' });
    await admin(s, 'expire', { keys: [d], timestamp: '2030-01-01T00:00:03.000Z' });
    await admin(s, 'cancel', { keys: [e], timestamp: '2030-01-01T00:00:04.000Z' });
    await admin(s, 'hide', { keys: [f], timestamp: '2030-01-01T00:00:05.000Z' });
    await admin(s, 'remove', { keys: [keys[9]] });

    const token = await tokenOf(s);
    await admin(s, 'reset', {});
    const changed = await page(s, `Property?$filter=ModificationTimestamp ge ${stamp}`, token);
    expect(changed.value.map((row) => [row.ListingKey, row.StandardStatus, row.MlgCanView])).toEqual([
      [a, expect.any(String), true],
      [b, expect.any(String), true],
      [c, 'Withdrawn', true],
      [d, 'Expired', true],
      [e, 'Canceled', true],
      [f, expect.any(String), false],
    ]);
    expect(changed.value[1]).toMatchObject({ PublicRemarks: 'New roof.' });
    expect(s.state.counters().recordsServed).toBe(6);
    expect(keysOf((await page(s, 'Property', token)).value)).not.toContain(keys[9]);
  });

  it('stamps with the injected clock when no timestamp is given', async () => {
    const clock = manualClock();
    const s = await sim({ now: clock.now, records: 2 });
    clock.advance(5000);
    const [key = ''] = s.state.records.list().map((record) => record.property.ListingKey);
    s.state.records.setStatus({ keys: [key], status: 'Delete' });
    expect(s.state.records.get(key)?.property).toMatchObject({
      StandardStatus: 'Delete',
      ModificationTimestamp: '2024-05-01T12:00:05.000Z',
    });
  });

  it('sets media: new URLs in Order, PhotosChangeTimestamp moves, ModificationTimestamp too unless touch is false', async () => {
    const s = await sim({ records: 2 });
    const [key = '', other = ''] = s.state.records.list().map((record) => record.property.ListingKey);
    const stampBefore = s.state.records.get(other)?.property.ModificationTimestamp;
    const urls = ['https://img.example.com/b.jpg', 'https://img.example.com/a.jpg'];
    await admin(s, 'media', { keys: [key], urls, timestamp: '2030-02-01T00:00:00.000Z' });
    await admin(s, 'media', { keys: [other], photos: 3, timestamp: '2030-02-02T00:00:00.000Z', touch: false });
    const token = await tokenOf(s);
    const rows = (await page(s, `Property?$expand=Media&$filter=ModificationTimestamp ge 2030-01-01T00:00:00Z`, token)).value;
    expect(rows.map((row) => [row.ListingKey, row.PhotosCount, row.PhotosChangeTimestamp])).toEqual([[key, 2, '2030-02-01T00:00:00.000Z']]);
    const media = (rows[0]?.Media ?? []) as ResoMedia[];
    expect([...media].sort((x, y) => x.Order - y.Order).map((photo) => photo.MediaURL)).toEqual(urls);
    expect(s.state.records.get(other)?.property).toMatchObject({
      PhotosCount: 3,
      PhotosChangeTimestamp: '2030-02-02T00:00:00.000Z',
      ModificationTimestamp: stampBefore,
    });
  });

  it('answers 404 for unknown keys and 400 with the field for a bad body; counters and config read back', async () => {
    const s = await sim({ records: 1 });
    const unknown = await admin(s, 'withdraw', { keys: ['NOPE'] });
    expect([unknown.status, odataMessage(unknown)]).toEqual([404, "no record with ListingKey 'NOPE'"]);
    const bad = await admin(s, 'modify', { keys: ['K0000001'], timestamp: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(odataMessage(bad)).toBe("timestamp: must be an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z (got 'yesterday')");
    expect((await admin(s, 'seed', { count: 1, colour: 'red' })).status).toBe(400);
    expect((await admin(s, 'counters')).body).toMatchObject({ requests: 0, tokensIssued: 0 });
    expect((await admin(s, 'state')).body).toMatchObject({ records: 1, suspended: null, config: { maxTop: 1000, nextLink: true } });
    expect((await admin(s, 'nope')).status).toBe(404);
  });

  it('answers admin routes to loopback clients only', async () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
    if (address === undefined) return; // No other interface to come from on this machine.
    const s = await sim({ host: '0.0.0.0' });
    const port = new URL(s.baseUrl).port;
    const res = await request(`http://${address}:${port}/__reso/counters`);
    await res.body.dump();
    expect(res.statusCode).toBe(403);
    expect(await request(`http://127.0.0.1:${port}/__reso/counters`).then(async (r) => (await r.body.dump(), r.statusCode))).toBe(200);
  });
});

describe('records', () => {
  it('are the same for the same seed and clock', async () => {
    const clock = manualClock();
    const first = await sim({ seed: 7, now: clock.now, records: 20 });
    const second = await sim({ seed: 7, now: clock.now, records: 20 });
    const other = await sim({ seed: 8, now: clock.now, records: 20 });
    expect(second.state.records.list()).toEqual(first.state.records.list());
    expect(other.state.records.list()).not.toEqual(first.state.records.list());
  });

  it('map through the reso feed profile: listed ones are valid listings with photos in Order, off-market ones excluded', async () => {
    const s = await sim({ records: 30 });
    const [gone = ''] = s.state.records.list().map((record) => record.property.ListingKey);
    s.state.records.setStatus({ keys: [gone], status: 'Withdrawn' });
    const token = await tokenOf(s);
    const body = await page(s, 'Property?$expand=Media', token);
    const dir = mkdtempSync(join(tmpdir(), 'reso-sim-'));
    try {
      const file = join(dir, 'page.json');
      writeFileSync(file, JSON.stringify(body));
      const { rows, stats } = await readFeedWith('reso', { source: file });
      expect(stats).toMatchObject({ rows: 30, valid: 29, excluded: 1 });
      const withdrawn = s.state.records.get(gone)?.property.ListingId;
      expect(rows.find((row) => row.kind === 'excluded')).toMatchObject({ key: withdrawn });
      for (const row of rows) {
        if (row.kind !== 'listing') continue;
        const record = body.value.find((value) => value.ListingId === row.key);
        const photos = [...((record?.Media ?? []) as ResoMedia[])].sort((x, y) => x.Order - y.Order).map((photo) => photo.MediaURL);
        expect(row.listing.Images ?? []).toEqual(photos);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
