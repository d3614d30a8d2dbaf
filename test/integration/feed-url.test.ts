import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFeed, type FeedOptions, type FeedRow } from '../../src/feed/open-feed.js';
import { displaySource } from '../../src/feed/feed-source.js';

const fixture = (name: string): string => join(import.meta.dirname, '../../fixtures/feeds', name);

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function readFeed(options: Partial<FeedOptions> & { source: string }, signal?: AbortSignal) {
  const feed = await openFeed({ profile: 'redfin', keyType: 'MLSNumber', ...options }, signal ? { signal } : {});
  const rows: FeedRow[] = [];
  for await (const row of feed.rows) rows.push(row);
  return { rows, stats: feed.stats(), progress: feed.progress() };
}

describe('feeds served over HTTP', () => {
  let server: Server;
  let base: string;
  const routes = new Map<string, Handler>();
  const requested: string[] = [];

  beforeEach(async () => {
    routes.clear();
    requested.length = 0;
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      const handler = routes.get(request.url ?? '');
      if (handler === undefined) {
        response.writeHead(404).end('not found');
        return;
      }
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('streams a CSV export from a URL', async () => {
    const body = await readFile(fixture('redfin-messy.csv'));
    routes.set('/exports/latest', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': String(body.length) });
      // Sent in small pieces so records and the BOM straddle network chunks.
      let offset = 0;
      const next = (): void => {
        if (offset >= body.length) {
          response.end();
          return;
        }
        response.write(body.subarray(offset, offset + 97));
        offset += 97;
        setImmediate(next);
      };
      next();
    });
    const { rows, stats, progress } = await readFeed({ source: `${base}/exports/latest` });
    expect(rows.map((row) => [row.kind, row.line])).toEqual([
      ['listing', 2],
      ['listing', 3],
      ['rejected', 5],
      ['listing', 6],
      ['rejected', 7],
    ]);
    expect(rows[0]).toMatchObject({ key: '92000001', listing: { SalePrice: 1250000 } });
    expect(stats).toMatchObject({ valid: 3, rejected: 2, duplicates: 1 });
    expect(progress).toEqual({ bytes: body.length, totalBytes: body.length });
  });

  it('follows @odata.nextLink across pages of a RESO OData feed', async () => {
    const odata = JSON.parse(await readFile(fixture('reso-odata.json'), 'utf8')) as { value: unknown[] };
    routes.set('/odata/Property', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal' });
      response.end(
        JSON.stringify({
          '@odata.context': `${base}/odata/$metadata#Property`,
          value: odata.value.slice(0, 2),
          '@odata.nextLink': '/odata/Property?$skip=2',
        }),
      );
    });
    routes.set('/odata/Property?$skip=2', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ value: odata.value.slice(2) }));
    });
    const { rows, stats, progress } = await readFeed({ source: `${base}/odata/Property`, profile: 'reso' });
    expect(rows.map((row) => [row.kind, row.line, row.kind === 'listing' ? row.key : ''])).toEqual([
      ['listing', 1, 'R100'],
      ['listing', 2, 'R101'],
      ['listing', 3, 'R102'],
    ]);
    expect(rows[0]).toMatchObject({ listing: { LotArea: 10890, HOAMonth: 100, Tours: '3D' } });
    expect(stats.valid).toBe(3);
    expect(requested).toEqual(['/odata/Property', '/odata/Property?$skip=2']);
    expect(progress.totalBytes).toBeUndefined();
  });

  it('an HTTP 500 is FEED_UNREADABLE, naming the URL and the status', async () => {
    routes.set('/feed.csv', (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    });
    const thrown = await openFeed({ source: `${base}/feed.csv`, profile: 'redfin', keyType: 'MLSNumber' }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({
      code: 'FEED_UNREADABLE',
      message: `Feed ${base}/feed.csv is unreadable: the server answered HTTP 500. Check the URL and the server, then rerun.`,
    });
  });

  it('a server that never answers times out as FEED_UNREADABLE', async () => {
    routes.set('/hang.csv', () => undefined);
    const thrown = await openFeed({ source: `${base}/hang.csv`, profile: 'redfin', keyType: 'MLSNumber', timeoutMs: 200 }).catch(
      (error: unknown) => error,
    );
    expect(thrown).toMatchObject({ code: 'FEED_UNREADABLE', message: expect.stringContaining('request failed (UND_ERR_HEADERS_TIMEOUT)') });
  });

  it('a failing next page stops the feed instead of ending it early', async () => {
    routes.set('/odata/Property', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ value: [{ ListingId: 'R1', ListingURL: 'https://e/r1' }], '@odata.nextLink': `${base}/odata/Property?page=2` }),
      );
    });
    routes.set('/odata/Property?page=2', (_request, response) => {
      response.writeHead(503).end();
    });
    const feed = await openFeed({ source: `${base}/odata/Property`, profile: 'reso', keyType: 'MLSNumber' });
    const seen: FeedRow[] = [];
    await expect(async () => {
      for await (const row of feed.rows) seen.push(row);
    }).rejects.toMatchObject({ code: 'FEED_UNREADABLE', message: expect.stringContaining('HTTP 503') });
    expect(seen).toHaveLength(1);
  });

  /** Page 1 holds one RESO record; every page links to a new page, forever. */
  function endlessPages(): void {
    routes.set('/odata/Property', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ value: [{ ListingId: 'R1', ListingURL: 'https://e/r1' }], '@odata.nextLink': '/odata/Property?page=2' }),
      );
    });
    for (let page = 2; page < 10_000; page++) {
      routes.set(`/odata/Property?page=${page}`, (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ value: [], '@odata.nextLink': `/odata/Property?page=${page + 1}` }));
      });
    }
  }

  it('stops an endless @odata.nextLink at the page cap with one clear message', async () => {
    endlessPages();
    const failure = await readFeed({ source: `${base}/odata/Property`, profile: 'reso', maxPages: 30 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'FEED_UNREADABLE',
      message: `Feed ${base}/odata/Property?… is unreadable: it has more than 30 pages ("@odata.nextLink" still points to a further page). Check the server's paging, or raise LISTING_SYNC_FEED_MAX_PAGES if the feed really has that many pages.`,
    });
    expect(requested).toHaveLength(30);
  });

  it('stops paging promptly when the sync is aborted', async () => {
    endlessPages();
    const controller = new AbortController();
    const reading = readFeed({ source: `${base}/odata/Property`, profile: 'reso' }, controller.signal).catch((error: unknown) => error);
    while (requested.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('interrupted'));
    expect(await reading).toMatchObject({
      code: 'FEED_INTERRUPTED',
      message: expect.stringContaining('was not read to the end: the sync was interrupted'),
    });
    const pagesAtAbort = requested.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The pages are endless: that the read ended at all shows the abort stopped it.
    expect(requested.length).toBeLessThanOrEqual(pagesAtAbort + 1);
  });

  it('refuses an @odata.nextLink to another origin without asking it', async () => {
    const otherRequests: string[] = [];
    const other = createServer((request, response) => {
      otherRequests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"value":[]}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      routes.set('/odata/Property', (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ value: [{ ListingId: 'R1', ListingURL: 'https://e/r1' }], '@odata.nextLink': `${otherOrigin}/steal?page=2` }),
        );
      });
      const failure = await readFeed({ source: `${base}/odata/Property`, profile: 'reso' }).catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: 'FEED_UNREADABLE',
        message: `Feed ${base}/odata/Property is unreadable: "@odata.nextLink" points to another origin (${otherOrigin}), which is not followed. Check the feed URL and the server's paging: its pages must stay on ${base}.`,
      });
      expect(otherRequests).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("sends a URL's user and password as basic auth, and names the URL without them or its query", async () => {
    const body = await readFile(fixture('redfin.csv'));
    const seen: Array<string | undefined> = [];
    routes.set('/private/feed.csv?access_token=tok-123', (request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'text/csv' }).end(body);
    });
    routes.set('/private/gone.csv?access_token=tok-123', (_request, response) => void response.writeHead(500).end());
    const secretBase = base.replace('http://', 'http://feeduser:p%40ss@');
    const { stats } = await readFeed({ source: `${secretBase}/private/feed.csv?access_token=tok-123` });
    expect(stats.valid).toBeGreaterThan(0);
    expect(seen).toEqual([`Basic ${Buffer.from('feeduser:p@ss').toString('base64')}`]);
    const failure = await openFeed({
      source: `${secretBase}/private/gone.csv?access_token=tok-123`,
      profile: 'redfin',
      keyType: 'MLSNumber',
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'FEED_UNREADABLE',
      message: `Feed ${base}/private/gone.csv?… is unreadable: the server answered HTTP 500. Check the URL and the server, then rerun.`,
    });
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message })).not.toMatch(/feeduser|p%40ss|p@ss|tok-123/);
  });

  it('stops a feed URL larger than the byte cap', async () => {
    const body = await readFile(fixture('redfin.csv'));
    routes.set('/big.csv', (_request, response) => void response.writeHead(200, { 'content-type': 'text/csv' }).end(body));
    const failure = await readFeed({ source: `${base}/big.csv`, maxBytes: 100 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'FEED_UNREADABLE',
      message: expect.stringContaining(
        'it is larger than 100 bytes, the most read from a feed URL. Check that the server ends the feed, or raise LISTING_SYNC_FEED_MAX_BYTES',
      ),
    });
  });
});

describe('displaySource', () => {
  it("keeps a path; drops a URL's user, password, query and fragment, marking a dropped query", () => {
    expect(displaySource('/feeds/a.csv')).toBe('/feeds/a.csv');
    expect(displaySource('https://u:p@feeds.example.com:8443/x/feed.json?access_token=t#frag')).toBe(
      'https://feeds.example.com:8443/x/feed.json?…',
    );
    expect(displaySource('https://feeds.example.com/feed.csv')).toBe('https://feeds.example.com/feed.csv');
    expect(displaySource('https://u:p@exa mple.com/feed?token=t')).toBe('https://exa mple.com/feed?…');
  });
});
