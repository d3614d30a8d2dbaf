/**
 * The RESO simulator's paging, as OData defines it and as real servers bend it, over HTTP:
 * `$top` as a total across server-driven pages, `Prefer: odata.maxpagesize` with
 * Preference-Applied, `@odata.count` of the filter, and the modes of servers found in the field
 * (the `$top`/`$skip` bug, nextLinks dropped early, records counted but never served, no count).
 * Each expectation is read from OData 4.01 (Part 1 §11.2.6.7 server-driven paging, §8.2.8.3
 * odata.maxpagesize; Part 2 §5.1.10 $top/$skip), not from the replication client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startResoSimulator, type ResoSimOptions, type RunningResoSimulator } from '../../src/sim/reso/server.js';

let sims: RunningResoSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function sim(options: ResoSimOptions): Promise<RunningResoSimulator> {
  const started = await startResoSimulator({ port: 0, ...options });
  sims.push(started);
  return started;
}

interface Page {
  '@odata.count'?: number;
  '@odata.nextLink'?: string;
  value: Array<Record<string, unknown>>;
}

async function tokenOf(s: RunningResoSimulator): Promise<string> {
  const basic = Buffer.from(`${s.credentials.clientId}:${s.credentials.clientSecret}`).toString('base64');
  const res = await request(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    body: 'grant_type=client_credentials',
  });
  return ((await res.body.json()) as { access_token: string }).access_token;
}

async function get(s: RunningResoSimulator, target: string, token: string, maxPageSize?: number) {
  const url = target.startsWith('http') ? target : `${s.serviceUrl}/${target}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (maxPageSize !== undefined) headers.prefer = `odata.maxpagesize=${maxPageSize}`;
  const res = await request(url, { headers });
  const body = (await res.body.json()) as Page;
  expect(res.statusCode, JSON.stringify(body)).toBe(200);
  return { body, headers: res.headers };
}

/** Follows nextLinks from `target` to the end; the sizes of the pages and every key. */
async function follow(s: RunningResoSimulator, target: string, token: string, maxPageSize?: number) {
  const sizes: number[] = [];
  const keys: unknown[] = [];
  let next: string | undefined = target;
  let count: number | undefined;
  while (next !== undefined) {
    const { body } = await get(s, next, token, maxPageSize);
    count ??= body['@odata.count'];
    sizes.push(body.value.length);
    keys.push(...body.value.map((row) => row.ListingKey));
    next = body['@odata.nextLink'];
  }
  return { sizes, keys, count };
}

const ORDER = '$orderby=ModificationTimestamp,ListingKey';

describe('OData paging (the default)', () => {
  it('takes $top as a total across the pages it serves, each at most its page size, behind $skiptoken nextLinks', async () => {
    const s = await sim({ maxTop: 1000, records: 2149 });
    const token = await tokenOf(s);
    const all = await follow(s, `Property?${ORDER}&$count=true&$select=ListingKey,ModificationTimestamp`, token);
    expect(all.sizes).toEqual([1000, 1000, 149]);
    expect(new Set(all.keys).size).toBe(2149);
    expect(all.count).toBe(2149);
    const topped = await follow(s, `Property?${ORDER}&$top=2100&$select=ListingKey,ModificationTimestamp`, token);
    expect(topped.sizes).toEqual([1000, 1000, 100]);
    expect(topped.keys).toEqual(all.keys.slice(0, 2100));
    const first = await get(s, `Property?${ORDER}&$top=2100`, token);
    expect(first.body['@odata.nextLink']).toContain('$skiptoken=1000');
  });

  it('honours Prefer: odata.maxpagesize up to its own page size and says so in Preference-Applied', async () => {
    const s = await sim({ maxTop: 50, records: 120 });
    const token = await tokenOf(s);
    const small = await get(s, `Property?${ORDER}`, token, 30);
    expect(small.body.value).toHaveLength(30);
    expect(small.headers['preference-applied']).toBe('odata.maxpagesize=30');
    expect((await follow(s, `Property?${ORDER}`, token, 30)).sizes).toEqual([30, 30, 30, 30]);
    const large = await get(s, `Property?${ORDER}`, token, 500);
    expect(large.body.value).toHaveLength(50);
    s.state.configure({ honourMaxPageSize: false });
    const ignored = await get(s, `Property?${ORDER}`, token, 30);
    expect(ignored.body.value).toHaveLength(50);
    expect(ignored.headers['preference-applied']).toBeUndefined();
  });

  it('counts what the filter matches, whatever $top and $skip cut, on every page', async () => {
    const s = await sim({ maxTop: 10, records: 25 });
    const token = await tokenOf(s);
    const { body } = await get(s, `Property?${ORDER}&$count=true&$top=5&$skip=3`, token);
    expect(body['@odata.count']).toBe(25);
    expect(body.value).toHaveLength(5);
    const pages = await follow(s, `Property?${ORDER}&$count=true`, token);
    expect(pages.sizes).toEqual([10, 10, 5]);
    s.state.configure({ count: false });
    expect((await get(s, `Property?${ORDER}&$count=true`, token)).body['@odata.count']).toBeUndefined();
  });
});

describe('servers found in the field', () => {
  it('the $skip bug: $top=T&$skip=S answers T − S records and no nextLink', async () => {
    const s = await sim({ maxTop: 1000, records: 2149, skipBug: true });
    const token = await tokenOf(s);
    const { body } = await get(s, `Property?${ORDER}&$top=1000&$skip=400`, token);
    expect(body.value).toHaveLength(600);
    expect(body['@odata.nextLink']).toBeUndefined();
    expect((await get(s, `Property?${ORDER}&$top=50&$skip=100`, token)).body.value).toHaveLength(0);
  });

  it('drops its nextLink after a number of records although more match', async () => {
    const s = await sim({ maxTop: 1000, records: 2149, dropNextLinkAfter: 1999 });
    const token = await tokenOf(s);
    const pulled = await follow(s, `Property?${ORDER}&$count=true`, token, 1000);
    expect(pulled.sizes).toEqual([1000, 1000]);
    expect(pulled.count).toBe(2149);
  });

  it('counts records it never serves (serveAtMost), also to a client that continues by key', async () => {
    const s = await sim({ maxTop: 1000, records: 2149, serveAtMost: 1999 });
    const token = await tokenOf(s);
    const pulled = await follow(s, `Property?${ORDER}&$count=true`, token);
    expect(pulled.sizes).toEqual([1000, 999]);
    expect(pulled.count).toBe(2149);
    const last = String(pulled.keys.at(-1));
    const record = s.state.records.get(last);
    const stamp = record?.property.ModificationTimestamp ?? '';
    const after = `(ModificationTimestamp gt ${stamp}) or (ModificationTimestamp eq ${stamp} and ListingKey gt '${last}')`;
    const rest = await get(s, `Property?${ORDER}&$count=true&$filter=${encodeURIComponent(after)}`, token);
    expect(rest.body.value).toHaveLength(0);
    expect(rest.body['@odata.count']).toBe(150);
  });
});
