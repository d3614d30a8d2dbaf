/**
 * Credentials never go over plain http to another machine, through the built CLI: a plain-http
 * FEED_OAUTH_TOKEN_URL, API_BASE_URL (with the service's keys), SITE_URL (with PROJECT_AUTH_TOKEN),
 * a --replicate feed URL (with a bearer token) or an alert webhook (its URL is its credential:
 * `alerts add`, `fleet apply`) stops with exit 2 and the https line before any connection: the
 * hosts below do not resolve, so a connection attempt would have said so instead. Loopback http
 * and the hosts in LISTING_SYNC_PLAIN_HTTP_HOSTS still work.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lines, runCli } from '../helpers/run-cli.js';
import { nativeCsvRow, useSyncBench, writeNativeCsv } from '../helpers/sync-bench.js';
import { sampleListing } from '../../src/sim/sample-listings.js';

const BOT = 'bot-https';
const bench = useSyncBench('credentials-https');
const HTTPS = 'use an https:// URL (plain http is allowed only to this machine: 127.0.0.1, ::1 or localhost)';

describe('credentials are sent over https only (or to this machine)', () => {
  it('FEED_OAUTH_TOKEN_URL=http://… is refused before any connection', async () => {
    const { env, dir, sim } = await bench.open({ chatbots: [BOT] });
    const feed = writeNativeCsv(dir, 'feed.csv', [nativeCsvRow(sampleListing(1))]);
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json'], {
      ...env,
      FEED_OAUTH_TOKEN_URL: 'http://mls.invalid/token',
      FEED_OAUTH_CLIENT_ID: 'client',
      FEED_OAUTH_CLIENT_SECRET: 'client-secret-never-shown',
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `FEED_OAUTH_TOKEN_URL is plain http to mls.invalid, which would send the feed OAuth client secret in clear: ${HTTPS}`,
    );
    expect(run.stderr).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo|client-secret-never-shown/);
    expect(sim.state.writeCalls()).toBe(0);
  });

  it("API_BASE_URL=http://… with the service's keys is refused before any connection", async () => {
    const { env, dir } = await bench.open({ chatbots: [BOT] });
    const feed = writeNativeCsv(dir, 'feed.csv', [nativeCsvRow(sampleListing(1))]);
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed], { ...env, API_BASE_URL: 'http://service.invalid' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `API_BASE_URL is plain http to service.invalid, which would send the service's API keys in clear: ${HTTPS}`,
    );
    expect(run.stderr).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
  });

  it('a --replicate feed over plain http with FEED_TOKEN is refused before any connection', async () => {
    const { env } = await bench.open({ chatbots: [BOT] });
    const run = await runCli(
      ['sync', '--chatbot', BOT, '--feed', 'http://mls.invalid/odata/Property', '--profile', 'reso', '--replicate', '--json'],
      { ...env, FEED_TOKEN: 'bearer-never-shown' },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(lines(run.stderr)).toEqual([
      `listing-sync: --feed is plain http to mls.invalid, which would send the feed bearer token in clear: ${HTTPS}`,
    ]);
  });

  it('a feed URL with a user and password over plain http is refused; loopback http with the keys still syncs', async () => {
    const { env, dir, sim } = await bench.open({ chatbots: [BOT] });
    const clear = await runCli(['sync', '--chatbot', BOT, '--feed', 'http://user:pass@feeds.invalid/feed.csv', '--json'], env);
    expect(clear.code, clear.stderr).toBe(2);
    expect(lines(clear.stderr)).toEqual([
      `listing-sync: --feed is plain http to feeds.invalid, which would send the feed URL's user and password in clear: ${HTTPS}`,
    ]);
    const feed = writeNativeCsv(dir, 'feed.csv', [nativeCsvRow(sampleListing(1))]);
    expect(env.API_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const run = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json', '--work'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(sim.state.listings(BOT)).toHaveLength(1);
  });

  it('SITE_URL=http://… with PROJECT_AUTH_TOKEN is refused before any connection', async () => {
    const { env } = await bench.open({ chatbots: [BOT] });
    const run = await runCli(['listings', 'list', '--chatbot', BOT], { ...env, SITE_URL: 'http://site.invalid' });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `SITE_URL is plain http to site.invalid, which would send PROJECT_AUTH_TOKEN (the table listing sends it) in clear: ${HTTPS}`,
    );
    expect(run.stderr).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
  });

  it('an alert webhook over plain http is refused by alerts add and fleet apply, never echoed; an allowed host is stored', async () => {
    const { env, dir } = await bench.open({ chatbots: [BOT] });
    const webhook = 'http://hooks.invalid/services/T0/B0/webhook-token-never-shown';
    const REFUSED =
      'is plain http to hooks.invalid, which would send the webhook URL (a credential: its path, query and user info) in clear: ' + HTTPS;
    const added = await runCli(['alerts', 'add', 'ops', '--webhook', webhook], env);
    expect(added.code, added.stderr).toBe(2);
    expect(lines(added.stderr)).toEqual([`listing-sync: --webhook ${REFUSED}`]);

    const file = join(dir, 'fleet.yaml');
    writeFileSync(
      file,
      `sources:\n  s:\n    feed: ${join(dir, 'feed.csv')}\nchatbots:\n  ${BOT}:\n    source: s\nalerts:\n  ops:\n    webhookEnv: OPS_HOOK\n`,
    );
    writeNativeCsv(dir, 'feed.csv', [nativeCsvRow(sampleListing(1))]);
    const applied = await runCli(['fleet', 'apply', file], { ...env, OPS_HOOK: webhook });
    expect(applied.code, applied.stderr).toBe(2);
    expect(applied.stderr).toContain(`alerts.ops.webhookEnv: the URL in OPS_HOOK ${REFUSED}`);

    const allowed = await runCli(['alerts', 'add', 'ops', '--webhook', webhook, '--json'], {
      ...env,
      LISTING_SYNC_PLAIN_HTTP_HOSTS: 'hooks.invalid',
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    // Stored while its host was allowed, no longer allowed: `alerts test` refuses it before any connection.
    const tested = await runCli(['alerts', 'test', 'ops'], env);
    expect(tested.code, tested.stderr).toBe(2);
    expect(lines(tested.stderr)).toEqual([
      `listing-sync: alert ops's webhook ${REFUSED}; replace it with \`listing-sync alerts add ops --webhook https://…\``,
    ]);
    for (const run of [added, applied, allowed, tested]) expect(run.stdout + run.stderr).not.toContain('webhook-token-never-shown');
  });
});
