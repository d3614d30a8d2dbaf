/**
 * Reading a server's `$metadata` through the feed client, against local HTTP servers: a document
 * over the size cap is refused with one line naming it (nothing is read past the cap), and a server
 * that answers 404 or 501 publishes none (the Data Dictionary names are used).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedClient } from '../../src/feed/reso-api/feed-client.js';
import { METADATA_MAX_BYTES, readMetadata } from '../../src/feed/reso-api/service-metadata.js';
import { staticBearerToken } from '../../src/feed/reso-api/token-provider.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function serve(answer: (path: string) => { status: number; headers?: Record<string, string>; body: string }): Promise<string> {
  const server = createServer((request, response) => {
    const { status, headers = {}, body } = answer(request.url ?? '');
    response.writeHead(status, headers);
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/odata/Property`;
}

const client = (): FeedClient => new FeedClient({ tokens: staticBearerToken('t'), serverErrorRetries: 0 });

describe('readMetadata', () => {
  it('refuses a $metadata over the cap by its declared length, naming the URL', async () => {
    const url = await serve(() => ({
      status: 200,
      headers: { 'content-type': 'application/xml', 'content-length': String(METADATA_MAX_BYTES + 1) },
      body: '',
    }));
    const reading = readMetadata(client(), url);
    await expect(reading).rejects.toMatchObject({ code: 'FEED_UNREADABLE' });
    await expect(reading).rejects.toThrow(/\/odata\/\$metadata.*content-length \d+ > 33554432.*a few MB/s);
  });

  it.each([404, 501])('reads a server answering %i as one without $metadata', async (status) => {
    const url = await serve(() => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"code":"x","message":"none"}}',
    }));
    await expect(readMetadata(client(), url)).resolves.toBeUndefined();
  });
});
