/**
 * What ops read on the dashboard, over real HTTP with in-memory data: the runs list and run
 * page, escaping of hostile feed values, the rejected-rows CSV, search by key, /metrics, /healthz.
 * Service calls reach /metrics the way production's do: a call recorder flushes them to Redis,
 * where the dashboard reads them.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { createCallRecorder, readCallMetrics } from '../../src/store/call-metrics.js';
import { HOSTILE, RUN_ID, fakeDashboardData, type FakeDashboardData } from '../helpers/dashboard.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';

const TOKEN = 'tok-pages-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let running: RunningDashboard | undefined;
let data: FakeDashboardData;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(basePath?: string): Promise<string> {
  data = fakeDashboardData();
  running = await startDashboard({
    data,
    queues: [],
    auth: { token: TOKEN },
    readOnly: false,
    metrics: createMetrics({ defaultMetrics: false }),
    logger: silentLogger(),
    port: 0,
    host: '127.0.0.1',
    ...(basePath ? { basePath } : {}),
  });
  return running.url;
}

async function get(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(url, { headers: AUTH });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

describe('dashboard pages', () => {
  it('shows a live progress bar and reloads the run page while the run has unfinished jobs', async () => {
    const url = await start();
    data.run.status = 'running';
    data.run.jobs = { total: 6, finished: 2, failed: 0 };
    const live = await get(`${url}/runs/${RUN_ID}`);
    expect(live.body).toContain('<progress max="6" value="2">33%</progress>');
    expect(live.body).toContain('<meta http-equiv="refresh" content="3">');
    data.run.status = 'done';
    data.run.jobs = { total: 6, finished: 6, failed: 0 };
    const done = await get(`${url}/runs/${RUN_ID}`);
    expect(done.body).not.toContain('<progress');
    expect(done.body).not.toContain('http-equiv="refresh"');
  });

  it('lists runs with chatbot, start, duration, counts, guard and forced', async () => {
    const url = await start();
    const { status, body } = await get(`${url}/`);
    expect(status).toBe(200);
    expect(body).toContain(`href="/runs/${RUN_ID}"`);
    expect(body).toContain('bot-demo');
    expect(body).toContain('2026-11-21 02:00:00Z');
    expect(body).toContain('1m 35s');
    expect(body).toContain('<span class="ok">passed</span>');
    expect(body).toMatch(/<td>no<\/td>\s*<\/tr>/);
  });

  it('shows a run: plan, feed summary, rejected rows with line and reason, failed jobs with Code and Message', async () => {
    const url = await start();
    const { body } = await get(`${url}/runs/${RUN_ID}`);
    expect(body).toContain('<dt>Create</dt><dd>5</dd>');
    expect(body).toContain('<dt>Unchanged</dt><dd>7</dd>');
    expect(body).toContain('fixtures/feed.csv');
    expect(body).toContain('Rejected rows (2)');
    expect(body).toMatch(
      /<td class="num">4<\/td><td class="mono">11646057<\/td><td>ListPrice<\/td><td class="mono">abc<\/td><td>not a number<\/td>/,
    );
    expect(body).toContain(`href="/runs/${RUN_ID}/rejected.csv"`);
    expect(body).toContain('Failed jobs (2)');
    expect(body).toContain('Internal error from service');
    expect(body).toMatch(
      /<td class="mono">A1<\/td><td>1 Main St<\/td><td>Springfield<\/td><td>create<\/td><td class="num">5<\/td>\s*<td class="mono">500<\/td>/,
    );
    expect(body).toContain('name="job" value="create.bot-demo.MLSNumber.A1.run-00test0001-abcd"');
  });

  it('shows a run summary as labelled words: feed, remote, plan notes and a replication pull, never JSON or camelCase keys', async () => {
    const url = await start();
    data.run.summary.feed = { source: 'x.csv', profile: 'redfin', rows: 10, filledDefaults: { LotArea: 252, YearBuilt: 3 } };
    data.run.summary.remote = { listings: 7, virtualCount: 7, complete: true, incompleteReasons: [], duplicates: 0, unkeyed: 0 };
    data.run.summary.planNotes = { held: 2, deletesWithheld: { deletes: 4, rows: 1, reason: 'a row without its key came in' } };
    data.run.summary.replication = { status: 'done', recordsPulled: 25, requests: 6, bytes: 2048, watermark: '2026-11-27T10:00:00Z' };
    const { body } = await get(`${url}/runs/${RUN_ID}`);
    expect(body).toContain('<dt>Defaults filled</dt><dd data-field="filledDefaults">LotArea 252 listings, YearBuilt 3 listings</dd>');
    expect(body).toContain('<dt>Listings the service counts</dt><dd data-field="virtualCount">7</dd>');
    expect(body).toContain('<dt>Held by rejected rows</dt><dd>2</dd>');
    expect(body).toContain('4: a row without its key came in');
    expect(body).toContain('<dt>Records pulled</dt><dd data-field="recordsPulled">25</dd>');
    expect(body).toContain('<dt>Data received</dt><dd data-field="bytes">2.0 KiB (2,048 bytes)</dd>');
    expect(body).toContain('<dt>Watermark now</dt><dd data-field="watermark">2026-11-27T10:00:00Z</dd>');
    expect(body).not.toMatch(/\{&quot;|\[\]|>incompleteReasons<|>filledDefaults</);
  });

  it('names each field the plan empties with its count, holders, verdict and examples, and what it changes per field', async () => {
    const url = await start();
    data.run.summary.wipes = {
      maxWipes: '10%',
      allowWipe: ['HOAMonth'],
      fields: [
        { field: 'Bedrooms', count: 342, holders: 350, verdict: 'refused', samples: [{ key: 'K1', from: 3, to: 0, filled: true }] },
        { field: 'HOAMonth', count: 40, holders: 60, verdict: 'allowed', samples: [{ key: HOSTILE, from: 120 }] },
      ],
    };
    data.run.summary.changes = [{ field: 'Bedrooms', count: 342, samples: [{ key: 'K1', from: 3, to: 0 }] }];
    const { body } = await get(`${url}/runs/${RUN_ID}`);
    expect(body).toContain('Fields emptied (2)');
    expect(body).toContain('--max-wipes 10% · --allow-wipe HOAMonth');
    expect(body).toContain(
      '<td>Bedrooms</td><td class="num">342</td><td class="num">350</td><td><span class="bad">refused</span></td><td class="mono">K1 3 → 0 (default)</td>',
    );
    expect(body).toContain(
      '<td>HOAMonth</td><td class="num">40</td><td class="num">60</td><td><span class="warn">allowed (--allow-wipe)</span>',
    );
    expect(body).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; 120 → (empty)');
    expect(body).toMatch(/<table id="changes">.*<td>Bedrooms<\/td><td class="num">342<\/td><td class="mono">K1 3 → 0<\/td>/s);
    expect(body).not.toContain('<script>');
  });

  it('shows no wipe table for a run without wipes, and says a run changed nothing', async () => {
    const url = await start();
    data.run.summary.wipes = { maxWipes: '10%', allowWipe: [], fields: [] };
    data.run.summary.changes = [];
    const { body } = await get(`${url}/runs/${RUN_ID}`);
    expect(body).not.toContain('Fields emptied');
    expect(body).toContain('No field of an existing listing changes.');
    expect(body).not.toContain('No listing changes.');
  });

  it('shows what the feed-shape check found on a run, refused or accepted with --accept-shape', async () => {
    const url = await start();
    expect((await get(`${url}/runs/${RUN_ID}`)).body).not.toContain('Feed shape');
    data.run.summary.shape = { accepted: true, drift: [{ kind: 'gone', column: 'PRICE', fields: ['SalePrice'] }] };
    const { body } = await get(`${url}/runs/${RUN_ID}`);
    expect(body).toContain(
      `<dt>Feed shape</dt><dd id="shape"><span class="warn">changed, accepted with --accept-shape</span> <span class="muted">&#39;PRICE&#39; (SalePrice) gone</span></dd>`,
    );
  });

  it('escapes hostile feed values everywhere they appear', async () => {
    const url = await start();
    for (const path of [`/runs/${RUN_ID}`, `/search?key=${encodeURIComponent(HOSTILE)}`]) {
      const { body } = await get(`${url}${path}`);
      expect(body, path).not.toContain('<script>');
      expect(body, path).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    }
  });

  it('answers 404 for an unknown run, safely', async () => {
    const url = await start();
    const { status, body } = await get(`${url}/runs/${encodeURIComponent('<b>x</b>')}`);
    expect(status).toBe(404);
    expect(body).toContain('No run with id &lt;b&gt;x&lt;/b&gt;.');
  });

  it('downloads the rejected rows as CSV, formula-safe', async () => {
    const url = await start();
    const { status, body, headers } = await get(`${url}/runs/${RUN_ID}/rejected.csv`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/csv/);
    expect(headers.get('content-disposition')).toBe(`attachment; filename="rejected-bot-demo-${RUN_ID}.csv"`);
    const lines = body.split('\r\n');
    expect(lines[0]).toBe('line,key,field,value,reason');
    expect(lines[1]).toBe('4,11646057,ListPrice,abc,not a number');
    expect(lines[2]).toBe(
      `9,"<script>alert(""pwned"")</script>",Address,"'=HYPERLINK(""http://evil"")","bad value <script>alert(""pwned"")</script>"`,
    );
    expect(lines).toHaveLength(4);
  });

  it('searches by listing key', async () => {
    const url = await start();
    const found = await get(`${url}/search?key=A1`);
    expect(found.body).toContain('1 job(s) in 1 run(s) touched');
    expect(found.body).toContain(`href="/runs/${RUN_ID}"`);
    const none = await get(`${url}/search?key=ZZZ`);
    expect(none.body).toContain('No run touched');
  });

  it('serves Prometheus metrics with jobs, calls recorded through Redis, failures and runs', async () => {
    const redisUrl = inject('redisUrl');
    const prefix = uniquePrefix('pages-calls');
    const redis = new Redis(redisUrl);
    try {
      const url = await start();
      const recorder = createCallRecorder(redis, prefix, { flushMs: 60_000 });
      recorder.observe({ endpoint: 'createListing', ms: 120, outcome: 'ok', envelopeCode: 200 });
      recorder.observe({ endpoint: 'createListing', ms: 30, outcome: 'ENVELOPE_FAILURE', envelopeCode: 500 });
      await recorder.close(); // sends what it counted, as a worker process does when it stops
      data.callMetrics = () => readCallMetrics(redis, prefix);
      data.runMetrics = async () => [{ chatbot: 'bot-1', status: 'done', startedAt: 1_000, finishedAt: 43_000 }];
      const { status, body, headers } = await get(`${url}/metrics`);
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(body).toContain('listing_sync_jobs{queue="listing-sync-listings",state="failed"} 2');
      expect(body).toContain('listing_sync_service_calls_total{endpoint="createListing",outcome="ok"} 1');
      expect(body).toContain('listing_sync_service_call_seconds_count{endpoint="createListing"} 2');
      expect(body).toContain('listing_sync_service_call_seconds_bucket{endpoint="createListing",le="0.05"} 1');
      expect(body).toContain('listing_sync_service_failures_total{code="500"} 1');
      expect(body).toContain('listing_sync_runs{status="done"} 1');
      expect(body).toContain('listing_sync_run_duration_seconds_sum{status="done"} 42');

      data.jobCounts = async () => {
        throw new Error('ECONNREFUSED');
      };
      const redisDown = await get(`${url}/metrics`);
      expect(redisDown.status).toBe(200);
      expect(redisDown.body).not.toContain('listing_sync_jobs{');
      expect(redisDown.body).toContain('listing_sync_runs{status="done"} 1');
    } finally {
      await redis.quit();
      await cleanPrefix(redisUrl, prefix);
    }
  });

  it('while the service is down every page shows a banner and /metrics says listing_sync_service_up 0; after, neither', async () => {
    const url = await start();
    const pages = ['/', `/runs/${RUN_ID}`, '/search?key=ML1', '/runs/no-such-run'];
    const since = Date.UTC(2026, 0, 10, 2, 14, 3);
    data.serviceOutage = async () => ({ since, reason: 'NETWORK: createListing: <connection reset>' });
    for (const page of pages) {
      const { body } = await get(`${url}${page}`);
      expect(body, page).toContain(
        '<div class="banner bad" role="alert" data-service="down"><strong>The service is down</strong> since 2026-01-10 02:14:03Z',
      );
      expect(body, page).toContain('(NETWORK: createListing: &lt;connection reset&gt;)');
    }
    expect((await get(`${url}/metrics`)).body).toMatch(/^listing_sync_service_up 0$/m);

    data.serviceOutage = async () => undefined;
    for (const page of pages) expect((await get(`${url}${page}`)).body, page).not.toContain('data-service');
    expect((await get(`${url}/metrics`)).body).toMatch(/^listing_sync_service_up 1$/m);
    // Unreadable (Redis away): the page still answers, without a banner; the gauge is absent, not a guess.
    data.serviceOutage = async () => {
      throw new Error('ECONNREFUSED');
    };
    expect((await get(`${url}/`)).status).toBe(200);
    expect((await get(`${url}/metrics`)).body).not.toMatch(/^listing_sync_service_up \d/m);
  });

  it('/healthz says ok when Redis answers and 503 when it does not', async () => {
    const url = await start();
    expect(await get(`${url}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    data.pingRedis = async () => false;
    expect((await get(`${url}/healthz`)).status).toBe(503);
    data.pingRedis = async () => {
      throw new Error('ECONNREFUSED');
    };
    expect((await get(`${url}/healthz`)).status).toBe(503);
  });

  it('works under a base path (behind a reverse proxy)', async () => {
    const url = await start('/ops');
    expect(url).toMatch(/\/ops$/);
    const { status, body } = await get(`${url}/`);
    expect(status).toBe(200);
    expect(body).toContain(`href="/ops/runs/${RUN_ID}"`);
    expect(body).toContain('href="/ops/assets/dashboard.css"');
    expect((await get(`${url}/queues/api/queues`)).status).toBe(200);
    const board = await get(`${url}/queues`);
    expect(board.status).toBe(200);
    expect(board.body).toContain('<base href="/ops/queues/"');
  });
});
