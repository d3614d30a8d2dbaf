/**
 * `fleet run SOURCE` of a replicated source whose feed server sends one byte a second: the one
 * shared pull is bound by --feed-timeout like a chatbot's own read. The command ends with exit 2
 * and one line naming --feed-timeout and the fleet source; no chatbot's run starts, nothing is
 * written to the service and no watermark moves. A URL source is read by each chatbot's sync
 * under its own deadline (a read that did not end leaves no copy for the next): each ends with the
 * same refusal, exit 2, nothing written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectNoFeedSecret, resoFixtures } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const start = resoFixtures();
const CHATBOTS = ['slow-east-bot', 'slow-west-bot'];
let dir = '';
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'ls-fleet-deadline-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A feed server answering every request with the start of an OData page, then one byte a second; counts the connections it saw end. */
async function slowFeed(): Promise<{ url: string; requests: () => number; hungUp: () => number }> {
  let requests = 0;
  let hungUp = 0;
  const server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"@odata.count": 3, "value": [');
    const timer = setInterval(() => response.write(' '), 1000);
    response.once('close', () => {
      clearInterval(timer);
      hungUp += 1;
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/odata/Property`,
    requests: () => requests,
    hungUp: () => hungUp,
  };
}

describe('fleet run: the shared pull is bound by --feed-timeout', () => {
  it('a source sending one byte a second ends at the deadline: exit 2, each chatbot told why, nothing written', async () => {
    const f = await start({ chatbots: CHATBOTS, label: 'fleet-deadline' });
    const feed = await slowFeed();
    const file = join(dir, `fleet-${f.prefix}.yaml`);
    writeFileSync(
      file,
      `sources:\n  slow-mls:\n    feed: ${feed.url}\n    profile: reso\n    replicate: true\n    overlap: 0s\nchatbots:\n` +
        CHATBOTS.map((name) => `  ${name}:\n    source: slow-mls\n`).join(''),
    );
    const env = f.env({ LOG_LEVEL: 'warn' });
    const applied = await runCli(['fleet', 'apply', file], env, 60_000);
    expect(applied.code, applied.stderr).toBe(0);

    const started = Date.now();
    const ran = await runCli(['fleet', 'run', 'slow-mls', '--work', '--feed-timeout', '3s', '--json'], env, 60_000);
    expectNoFeedSecret(ran.stdout + ran.stderr);
    expect(ran.code, ran.stderr).toBe(2);
    // Why a bound this loose: the deadline is 3 s; without it the read of a 1 byte/s feed never ends.
    expect(Date.now() - started).toBeLessThan(45_000);
    // The one shared pull failed at the deadline, and each chatbot's run is failed with its words.
    const out = jsonOf<{ chatbots: Array<{ chatbot: string; exitCode: number; error?: string }> }>(ran);
    expect(out.chatbots.map((c) => [c.chatbot, c.exitCode])).toEqual(CHATBOTS.map((c) => [c, 2]));
    for (const c of out.chatbots) {
      expect(c.error).toContain(`Feed ${feed.url} (fleet source slow-mls) is unreadable: it was still being read after 3 s`);
      expect(c.error).toContain('raise --feed-timeout (env LISTING_SYNC_FEED_TIMEOUT)');
    }
    // The pull was asked and then let go: the server saw its connection closed, not held.
    expect(feed.requests()).toBeGreaterThan(0);
    expect(feed.hungUp()).toBe(feed.requests());

    expect(f.sim.state.writeCalls()).toBe(0);
    for (const chatbot of CHATBOTS) expect(f.sim.state.listings(chatbot), chatbot).toEqual([]);
  }, 120_000);

  it('a URL source sending one byte a second: the read of each chatbot is stopped by --feed-timeout, nothing written', async () => {
    const f = await start({ chatbots: CHATBOTS, label: 'fleet-deadline-url' });
    const feed = await slowFeed();
    const file = join(dir, `fleet-url-${f.prefix}.yaml`);
    writeFileSync(
      file,
      `sources:\n  slow-csv:\n    feed: ${feed.url}\nchatbots:\n` + CHATBOTS.map((name) => `  ${name}:\n    source: slow-csv\n`).join(''),
    );
    const env = f.env({ LOG_LEVEL: 'warn' });
    expect((await runCli(['fleet', 'apply', file], env, 60_000)).code).toBe(0);
    const ran = await runCli(['fleet', 'run', 'slow-csv', '--work', '--feed-timeout', '2s', '--json'], env, 60_000);
    expect(ran.code, ran.stderr).toBe(2);
    const out = jsonOf<{ chatbots: Array<{ chatbot: string; exitCode: number; error?: string }> }>(ran);
    expect(out.chatbots.map((c) => [c.chatbot, c.exitCode])).toEqual(CHATBOTS.map((c) => [c, 2]));
    for (const c of out.chatbots) expect(c.error).toContain('it was still being read after 2 s, the most --feed-timeout allows');
    expect(feed.hungUp()).toBe(feed.requests());
    expect(f.sim.state.writeCalls()).toBe(0);
  }, 120_000);
});
