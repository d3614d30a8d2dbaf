/**
 * A feed URL's time and size through the built CLI: a server sending one byte a second is stopped
 * by --feed-timeout, a server announcing a 10 GB body is refused before its body is read, and an
 * endless chunked body stops at LISTING_SYNC_FEED_MAX_BYTES while the process stays small (the
 * body is streamed, never held). Each ends with exit 2 and one line; nothing is written.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, lines, runCli, type CliRun } from '../helpers/run-cli.js';
import { useSyncBench } from '../helpers/sync-bench.js';

const BOT = 'bot-feed-deadline';
const bench = useSyncBench('feed-deadline');
const HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots\n';
const ROW = 'ML1,https://e.test/1,for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1\n';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function feedServer(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`;
}

/** The header at once, then one byte a second for as long as the client listens. */
const oneBytePerSecond: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/csv' });
  response.write(HEADER);
  let at = 0;
  const timer = setInterval(() => response.write(ROW[at++ % ROW.length] as string), 1000);
  response.once('close', () => clearInterval(timer));
};

const sync = (feed: string, ...flags: string[]): string[] => ['sync', '--chatbot', BOT, '--feed', feed, '--json', ...flags];

function refusedInOneLine(run: CliRun): string {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const said = lines(run.stderr);
  expect(said, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(/Body Timeout Error|at .*\.js:\d+/);
  return said[0] as string;
}

/** Runs the CLI and samples its resident set from /proc until it exits: the peak, in bytes. */
async function runSampled(args: readonly string[], env: Record<string, string>): Promise<CliRun & { peakRss: number }> {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let peakRss = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const sample = setInterval(() => {
    try {
      const high = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (high) peakRss = Math.max(peakRss, Number(high[1]) * 1024);
    } catch {
      // the process has just exited
    }
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearInterval(sample);
  return { code, stdout, stderr, peakRss };
}

describe('a feed URL is bounded in time and size', () => {
  it('a server sending one byte a second is stopped by --feed-timeout 3s: exit 2, one line', async () => {
    const { sim, env } = await bench.open({ chatbots: [BOT] });
    const url = await feedServer(oneBytePerSecond);
    const run = await runCli(sync(url, '--feed-timeout', '3s'), env, 30_000);
    expect(refusedInOneLine(run)).toBe(
      `listing-sync: Feed ${url} is unreadable: it was still being read after 3 s, the most --feed-timeout allows. ` +
        'Check that the server sends the feed at a normal speed, or raise --feed-timeout (env LISTING_SYNC_FEED_TIMEOUT) if it really takes that long.',
    );
    expect(sim.state.writeCalls()).toBe(0);
  });

  it('LISTING_SYNC_FEED_TIMEOUT sets the same deadline, and a bad value is refused naming it', async () => {
    const { env } = await bench.open({ chatbots: [BOT] });
    const url = await feedServer(oneBytePerSecond);
    expect(refusedInOneLine(await runCli(sync(url), { ...env, LISTING_SYNC_FEED_TIMEOUT: '2s' }, 30_000))).toContain(
      'it was still being read after 2 s, the most --feed-timeout allows',
    );
    const bad = await runCli(sync(url, '--feed-timeout', 'soon'), env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("must be a duration such as 90s, 10m or 2h (got 'soon')");
  });

  it('a 10 GB Content-Length is refused before the body is read', async () => {
    const { sim, env } = await bench.open({ chatbots: [BOT] });
    let sent = 0;
    const url = await feedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(10 * 1024 ** 3) });
      response.write(HEADER, () => (sent += HEADER.length));
    });
    const run = await runCli(sync(url), env);
    expect(refusedInOneLine(run)).toBe(
      `listing-sync: Feed ${url} is unreadable: the server announces ${10 * 1024 ** 3} bytes (Content-Length), more than the ${2 * 1024 ** 3} bytes read from a feed URL. ` +
        'Check that the server ends the feed, or raise LISTING_SYNC_FEED_MAX_BYTES if it really is that large.',
    );
    expect(sent).toBeLessThanOrEqual(HEADER.length);
    expect(sim.state.writeCalls()).toBe(0);
  });

  it('an endless chunked body stops at the size cap, streamed: the process stays small', async () => {
    const { sim, env } = await bench.open({ chatbots: [BOT] });
    const chunk = Buffer.from(ROW.repeat(4096));
    const url = await feedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' });
      response.write(HEADER);
      const pump = (): void => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const cap = 300 * 1024 * 1024;
    const run = await runSampled(sync(url, '--dry-run'), { ...env, LISTING_SYNC_FEED_MAX_BYTES: String(cap) });
    expect(refusedInOneLine(run)).toBe(
      `listing-sync: Feed ${url} is unreadable: it is larger than ${cap} bytes, the most read from a feed URL. ` +
        'Check that the server ends the feed, or raise LISTING_SYNC_FEED_MAX_BYTES if it really is that large.',
    );
    // Held whole, 300 MiB of body would be more than 300 MiB resident; streamed, far less.
    expect(run.peakRss).toBeGreaterThan(0);
    expect(run.peakRss).toBeLessThan(256 * 1024 * 1024);
    expect(sim.state.writeCalls()).toBe(0);
  }, 120_000);
});
