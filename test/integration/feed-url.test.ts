import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFeed, type FeedOptions, type FeedRow } from '../../src/feed/open-feed.js';

const fixture = (name: string): string => join(import.meta.dirname, '../../fixtures/feeds', name);

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function readFeed(options: Partial<FeedOptions> & { source: string }) {
  const feed = await openFeed({ profile: 'redfin', keyType: 'MLSNumber', ...options });
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
    expect(rows.map((row) => [row.kind, row.line])).toEqual([['listing', 2], ['listing', 3], ['rejected', 5], ['listing', 6], ['rejected', 7]]);
    expect(rows[0]).toMatchObject({ key: '92000001', listing: { SalePrice: 1250000 } });
    expect(stats).toMatchObject({ valid: 3, rejected: 2, duplicates: 1 });
    expect(progress).toEqual({ bytes: body.length, totalBytes: body.length });
  });

  it('follows @odata.nextLink across pages of a RESO OData feed', async () => {
    const odata = JSON.parse(await readFile(fixture('reso-odata.json'), 'utf8')) as { value: unknown[] };
    routes.set('/odata/Property', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal' });
      response.end(JSON.stringify({ '@odata.context': `${base}/odata/$metadata#Property`, value: odata.value.slice(0, 2), '@odata.nextLink': '/odata/Property?$skip=2' }));
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
    expect(thrown).toMatchObject({ code: 'FEED_UNREADABLE', message: `Feed ${base}/feed.csv is unreadable: the server answered HTTP 500. Check the URL and the server, then rerun.` });
  });

  it('a server that never answers times out as FEED_UNREADABLE', async () => {
    routes.set('/hang.csv', () => undefined);
    const thrown = await openFeed({ source: `${base}/hang.csv`, profile: 'redfin', keyType: 'MLSNumber', timeoutMs: 200 }).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ code: 'FEED_UNREADABLE', message: expect.stringContaining('request failed (UND_ERR_HEADERS_TIMEOUT)') });
  });

  it('a failing next page stops the feed instead of ending it early', async () => {
    routes.set('/odata/Property', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ value: [{ ListingId: 'R1', ListingURL: 'https://e/r1' }], '@odata.nextLink': `${base}/odata/Property?page=2` }));
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
});
