/**
 * Feed URLs through the built CLI: an endless @odata.nextLink stops at the page cap (exit 2, one
 * line), a SIGTERM'd sync stops paging at once, a nextLink to another origin is refused without
 * asking it, and a URL's credentials and query string appear in no output, record or report.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, jsonOf, lines, runCli } from '../helpers/run-cli.js';
import { useSyncBench } from '../helpers/sync-bench.js';

const BOT = 'bot-feed-url';
const bench = useSyncBench('feed-url-safety');

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface FeedServer {
  readonly origin: string;
  readonly requests: string[];
  close(): Promise<void>;
}

const servers: FeedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function feedServer(handler: Handler): Promise<FeedServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started: FeedServer = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(started);
  return started;
}

const json = (response: ServerResponse, body: unknown): void =>
  void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const RECORD = {
  ListingId: 'R1',
  ListingURL: 'https://e.test/r1',
  StandardStatus: 'Active',
  PropertyType: 'Residential',
  ListPrice: 100000,
};

/** Page 1 holds one record; every page links to a new, empty one, forever. */
const endlessPages: Handler = (request, response) => {
  const page = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
  json(response, { value: page === 1 ? [RECORD] : [], '@odata.nextLink': `/odata/Property?page=${page + 1}` });
};

describe('@odata.nextLink through the CLI', () => {
  it('an endless nextLink stops at LISTING_SYNC_FEED_MAX_PAGES: exit 2, one line, nothing written', async () => {
    const { sim, env } = await bench.open({ chatbots: [BOT] });
    const server = await feedServer(endlessPages);
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', `${server.origin}/odata/Property`, '--profile', 'reso', '--json', '--work'],
      { ...env, LISTING_SYNC_FEED_MAX_PAGES: '40' },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toEqual([
      `listing-sync: Feed ${server.origin}/odata/Property?… is unreadable: it has more than 40 pages ("@odata.nextLink" still points to a further page). Check the server's paging, or raise LISTING_SYNC_FEED_MAX_PAGES if the feed really has that many pages.`,
    ]);
    expect(server.requests).toHaveLength(40);
    expect(sim.state.writeCalls()).toBe(0);
  });

  it('a sync given SIGTERM while it pages stops at once', async () => {
    const { env } = await bench.open({ chatbots: [BOT] });
    // A slow server (20 ms a page): the default cap of 10,000 pages would take minutes.
    const server = await feedServer((request, response) => void setTimeout(() => endlessPages(request, response), 20));
    const child = spawn(
      process.execPath,
      [CLI_ENTRY, 'sync', '--chatbot', BOT, '--feed', `${server.origin}/odata/Property`, '--profile', 'reso', '--dry-run'],
      {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    while (server.requests.length < 30) await new Promise((resolve) => setTimeout(resolve, 10));
    const signalledAt = Date.now();
    const pagesAtSignal = server.requests.length;
    child.kill('SIGTERM');
    const code = await exited;
    expect(Date.now() - signalledAt).toBeLessThan(3000);
    expect(server.requests.length - pagesAtSignal).toBeLessThanOrEqual(1);
    expect(code, stderr).toBe(1);
    expect(lines(stderr)).toEqual([
      expect.stringMatching(
        /^listing-sync: Feed http:\/\/127\.0\.0\.1:\d+\/odata\/Property(\?…)? was not read to the end: the sync was interrupted, so nothing was planned or changed\. Run the sync again\.$/,
      ),
    ]);
  });

  it('a nextLink to another origin is refused: exit 2, and the other server is never asked', async () => {
    const { sim, env } = await bench.open({ chatbots: [BOT] });
    const other = await feedServer((_request, response) => json(response, { value: [RECORD] }));
    const server = await feedServer((_request, response) =>
      json(response, { value: [RECORD], '@odata.nextLink': `${other.origin}/odata/Property?page=2` }),
    );
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', `${server.origin}/odata/Property`, '--profile', 'reso', '--json', '--work'],
      env,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `listing-sync: Feed ${server.origin}/odata/Property is unreadable: "@odata.nextLink" points to another origin (${other.origin}), which is not followed. Check the feed URL and the server's paging: its pages must stay on ${server.origin}.`,
    ]);
    expect(other.requests).toEqual([]);
    expect(sim.state.writeCalls()).toBe(0);
  });
});

describe('credentials inside a feed URL', () => {
  const SECRETS = /feeduser|pw-SECRET|tok-SECRET|access_token/;

  it('are used to fetch, and appear in no output, run record or report', async () => {
    const opened = await bench.open({ chatbots: [BOT] });
    const env = { ...opened.env, LOG_LEVEL: 'debug' };
    const authorization = `Basic ${Buffer.from('feeduser:pw-SECRET-2').toString('base64')}`;
    const csv = readFileSync(join(import.meta.dirname, '../../fixtures/sync/listings-0-2.csv'));
    const server = await feedServer((request, response) => {
      if (request.headers.authorization !== authorization || request.url !== '/feeds/acme.csv?access_token=tok-SECRET-1')
        response.writeHead(401).end();
      else response.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
    });
    const source = `${server.origin.replace('http://', 'http://feeduser:pw-SECRET-2@')}/feeds/acme.csv?access_token=tok-SECRET-1`;
    const report = join(opened.dir, 'plan.json');

    const run = await runCli(['sync', '--chatbot', BOT, '--feed', source, '--json', '--work', '--report', report], env);
    expect(run.code, run.stderr).toBe(0);
    const summary = jsonOf<{ runId: string; feed: { source: string }; result: { created: number } }>(run);
    expect(summary.result.created).toBe(3);
    expect(summary.feed.source).toBe(`${server.origin}/feeds/acme.csv?…`);
    const shown = await runCli(['runs', 'show', summary.runId, '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);
    const text = await runCli(['sync', '--chatbot', BOT, '--feed', source, '--dry-run', '--report', join(opened.dir, 'plan.csv')], env);
    expect(text.code, text.stderr).toBe(0);
    const failed = await runCli(['sync', '--chatbot', BOT, '--feed', source.replace('acme.csv', 'gone.csv'), '--dry-run'], env);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`Feed ${server.origin}/feeds/gone.csv?… is unreadable: the server answered HTTP 401`);

    // A schedule would store the URL in Redis: refused, naming the URL only as shown, nothing stored.
    const scheduled = await runCli(['schedule', 'add', 'nightly', '--cron', '0 2 * * *', '--chatbot', BOT, '--feed', source], env);
    expect(scheduled.code).toBe(2);
    expect(lines(scheduled.stderr)).toEqual([
      `listing-sync: --feed ${server.origin}/feeds/acme.csv?… cannot be scheduled: it carries a user and password, and a schedule is stored in Redis where credentials must never be. Serve the feed at a URL without them (or from a file the workers can read), then add the schedule again.`,
    ]);
    expect((await runCli(['schedule', 'list', '--json'], env)).stdout).toContain('"schedules": []');

    const outputs = {
      run,
      shown,
      text,
      failed,
      scheduled,
      report: readFileSync(report, 'utf8'),
      csvReport: readFileSync(join(opened.dir, 'plan.csv'), 'utf8'),
    };
    for (const [name, output] of Object.entries(outputs)) expect(JSON.stringify(output), name).not.toMatch(SECRETS);
    expect(server.requests.filter((url) => url.includes('acme.csv')).length).toBe(2);
  });
});
