/**
 * /metrics on the dashboard reflects work done by other processes, through Redis: the call
 * recorder batches (no Redis command per call), in-process workers wired like `sync --work`
 * and a real `listing-sync worker` process record their calls, and a separately opened
 * dashboard serves calls by endpoint/outcome, failures by envelope Code and runs by status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDashboardWiring, type DashboardWiring } from '../../src/cli/wiring/dashboard-wiring.js';
import type { QueueContext } from '../../src/cli/wiring/queue-context.js';
import { createRecordedClient, openQueueContext, startConfiguredWorkers, type RecordedClient } from '../../src/cli/wiring/queue-wiring.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import type { RunningWorkers } from '../../src/queue/worker.js';
import { createCallRecorder, readCallMetrics, type CallRecorder } from '../../src/store/call-metrics.js';
import { storeKeys } from '../../src/store/keys.js';
import { eventually } from '../helpers/dashboard.js';
import { feedOf, openQueueBench, type QueueBench } from '../helpers/queue.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { startRedisProcess } from '../helpers/redis-process.js';
import { simEnv } from '../helpers/sim.js';

const redisUrl = inject('redisUrl');
const TOKEN = 'tok-call-metrics-17';
const ROOT = resolve(import.meta.dirname, '../..');

/** Everything a test opened, closed in reverse order by afterEach. */
let closers: (() => Promise<unknown>)[] = [];
let prefixes: string[] = [];
let passed = false;

afterEach(async () => {
  for (const close of closers.reverse()) await close();
  if (passed) for (const prefix of prefixes) await cleanPrefix(redisUrl, prefix);
  closers = [];
  prefixes = [];
  passed = false;
});

function opened<T>(thing: T, close: (t: T) => Promise<unknown>): T {
  closers.push(() => close(thing));
  return thing;
}

function configFor(bench: QueueBench): Config {
  return resolveConfig({
    env: {
      ...simEnv(bench.sim),
      REDIS_URL: redisUrl,
      LISTING_SYNC_PREFIX: bench.prefix,
      LISTING_SYNC_BACKOFF_MS: '5',
      LISTING_SYNC_BACKOFF_MAX_MS: '20',
      LISTING_SYNC_CONCURRENCY: '4',
    },
  });
}

/** The dashboard process's side: its own wiring over Redis, serving /metrics with a token. */
async function openDashboard(config: Config): Promise<string> {
  const wiring = opened<DashboardWiring>(await createDashboardWiring(config, silentLogger()), (w) => w.close());
  const dashboard = opened<RunningDashboard>(
    await startDashboard({
      data: wiring.data,
      queues: wiring.queues,
      auth: { token: TOKEN },
      readOnly: true,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: silentLogger(),
      port: 0,
      host: '127.0.0.1',
    }),
    (d) => d.close(),
  );
  return dashboard.url;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return await res.text();
}

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function enqueueCreates(bench: QueueBench, chatbot: string, count: number): Promise<string> {
  return await bench.enqueue(await bench.plan(chatbot, feedOf(chatbot, 0, count)));
}

describe('call recorder', () => {
  it('sends nothing per call, then one batch of one command per field on flush', async () => {
    const prefix = uniquePrefix('calls');
    // Why a Redis of its own: MONITOR streams every command of the server, and the shared one
    // carries every other test's traffic (a flood the monitor connection can fall behind on).
    const own = opened(await startRedisProcess(), (r) => r.close());
    const key = storeKeys(prefix).callMetrics();
    const redis = opened(new Redis(own.url), (r) => r.quit());
    const watcher = opened(new Redis(own.url), (r) => r.quit());
    const seen: string[][] = [];
    const monitor = opened(await watcher.monitor(), async (m) => void m.disconnect());
    // Every command the recorder could send to the key (the test's own reads are not counted).
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.includes(key) && args[0]?.toLowerCase().startsWith('hincrby')) seen.push(args);
    });
    const recorder = opened<CallRecorder>(createCallRecorder(redis, prefix, { flushMs: 60_000 }), (r) => r.close());

    for (let i = 0; i < 150; i += 1)
      recorder.observe({ endpoint: 'createListing', ms: i % 3 === 0 ? 3 : 40, outcome: 'ok', envelopeCode: 200 });
    for (let i = 0; i < 40; i += 1)
      recorder.observe({ endpoint: 'createListing', ms: 700, outcome: 'ENVELOPE_FAILURE', envelopeCode: 500 });
    for (let i = 0; i < 10; i += 1) recorder.observe({ endpoint: 'updateListing', ms: 12_000, outcome: 'TIMEOUT' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await redis.exists(key)).toBe(0);
    expect(seen).toEqual([]);

    await recorder.flush();
    const fields = await redis.hlen(key);
    await eventually(async () => seen.length >= fields);
    expect(seen.length).toBe(fields); // one HINCRBY/HINCRBYFLOAT per field, not one per call
    expect(fields).toBeLessThan(15);

    const totals = await readCallMetrics(redis, prefix);
    const create = totals.endpoints.find((e) => e.endpoint === 'createListing');
    const update = totals.endpoints.find((e) => e.endpoint === 'updateListing');
    expect(create?.outcomes).toEqual({ ok: 150, ENVELOPE_FAILURE: 40 });
    expect(update?.outcomes).toEqual({ TIMEOUT: 10 });
    expect(totals.failures).toEqual({ '500': 40, TIMEOUT: 10 });
    const le = (bound: number): number => totals.buckets.indexOf(bound);
    expect(create?.bucketCounts[le(0.005)]).toBe(50);
    expect(create?.bucketCounts[le(0.05)]).toBe(100);
    expect(create?.bucketCounts[le(1)]).toBe(40);
    expect(update?.bucketCounts.at(-1)).toBe(10); // above the last bound (10 s)
    expect(create?.sumSeconds).toBeCloseTo((50 * 3 + 100 * 40 + 40 * 700) / 1000, 6);

    const before = seen.length;
    await recorder.flush(); // nothing new: nothing sent
    recorder.observe({ endpoint: 'createListing', ms: 3, outcome: 'ok' });
    await recorder.close(); // close sends the rest
    expect((await readCallMetrics(redis, prefix)).endpoints.find((e) => e.endpoint === 'createListing')?.outcomes.ok).toBe(151);
    await eventually(async () => seen.length > before);
    expect(seen.length - before).toBe(3); // calls, bucket and sum of the one call
    passed = true;
  });

  it('flushes on its own every flushMs', async () => {
    const prefix = uniquePrefix('calls');
    prefixes.push(prefix);
    const redis = opened(new Redis(redisUrl), (r) => r.quit());
    const recorder = opened<CallRecorder>(createCallRecorder(redis, prefix, { flushMs: 50 }), (r) => r.close());
    recorder.observe({ endpoint: 'listListings', ms: 20, outcome: 'ok' });
    await eventually(async () => (await readCallMetrics(redis, prefix)).endpoints[0]?.outcomes.ok === 1, 3000);
    passed = true;
  });
});

describe('dashboard /metrics over work done elsewhere', () => {
  it('shows calls, failures by envelope Code and runs recorded by workers wired like sync --work', async () => {
    const bench = opened(await openQueueBench(redisUrl, { chatbots: ['bot-ok', 'bot-bad'] }, 'calls'), (b) => b.close(passed));
    const config = configFor(bench);
    const logger = silentLogger();
    const ctx = opened<QueueContext>(await openQueueContext(config, 'worker'), (c) => c.close());
    const client = opened<RecordedClient>(createRecordedClient(config, logger, ctx.redis, { flushMs: 100 }), (c) => c.close());
    opened<RunningWorkers>(await startConfiguredWorkers(config, client.api, ctx, logger), (w) => w.close());

    const okRun = await enqueueCreates(bench, 'bot-ok', 5);
    expect((await waitForRun(bench.store, okRun, { pollMs: 50 })).created).toBe(5);
    bench.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
    const badRun = await enqueueCreates(bench, 'bot-bad', 3);
    expect((await waitForRun(bench.store, badRun, { pollMs: 50 })).failedJobs).toBe(3);
    const sim = bench.sim.state.callCounts();
    const failedCreates = sim.createListing - 5;
    expect(failedCreates).toBeGreaterThanOrEqual(3);

    const url = await openDashboard(config); // no API client of its own: the calls come from Redis only
    let body = '';
    await eventually(async () => {
      body = await scrape(url);
      return sample(body, 'listing_sync_service_call_seconds_count{endpoint="createListing"}') === sim.createListing;
    });
    expect(sample(body, 'listing_sync_service_calls_total{endpoint="createListing",outcome="ok"}')).toBe(5);
    expect(sample(body, 'listing_sync_service_calls_total{endpoint="createListing",outcome="ENVELOPE_FAILURE"}')).toBe(failedCreates);
    expect(sample(body, 'listing_sync_service_failures_total{code="500"}')).toBe(failedCreates);
    expect(sample(body, 'listing_sync_service_call_seconds_bucket{endpoint="createListing",le="+Inf"}')).toBe(sim.createListing);
    expect(sample(body, 'listing_sync_service_call_seconds_sum{endpoint="createListing"}')).toBeGreaterThan(0);

    const okStatus = (await bench.store.runs.getRun(okRun))?.status;
    const badStatus = (await bench.store.runs.getRun(badRun))?.status;
    expect(okStatus).toBe('done');
    expect(badStatus).not.toBe('done');
    expect(sample(body, `listing_sync_runs{status="done"}`)).toBe(1);
    expect(sample(body, `listing_sync_runs{status="${badStatus}"}`)).toBe(1);
    expect(sample(body, `listing_sync_run_duration_seconds_count{status="done"}`)).toBe(1);
    expect(sample(body, `listing_sync_last_run_timestamp_seconds{chatbot="bot-ok",status="done"}`)).toBeGreaterThan(
      Date.now() / 1000 - 600,
    );
    expect(body).toContain('listing_sync_jobs{queue="listing-writes",state="failed"}');
    passed = true;
  });

  it('shows the calls of a `listing-sync worker` process, flushed when it shuts down', async () => {
    const bench = opened(await openQueueBench(redisUrl, { chatbots: ['bot-proc'] }, 'callsproc'), (b) => b.close(passed));
    const config = configFor(bench);
    const worker: ChildProcess = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src/cli/main.ts'), 'worker'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        ...simEnv(bench.sim),
        REDIS_URL: redisUrl,
        LISTING_SYNC_PREFIX: bench.prefix,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((ok) => worker.once('exit', ok));
    opened(worker, async (w) => void (w.exitCode === null && w.signalCode === null && w.kill('SIGKILL')));
    let stderr = '';
    worker.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    await eventually(async () => stderr.includes('workers started'), 20_000);

    const runId = await enqueueCreates(bench, 'bot-proc', 4);
    expect((await waitForRun(bench.store, runId, { pollMs: 50 })).created).toBe(4);
    worker.kill('SIGTERM'); // well within the 5 s flush interval: the close path must send the counts
    expect(await exited).toBe(0);

    const body = await scrape(await openDashboard(config));
    expect(sample(body, 'listing_sync_service_calls_total{endpoint="createListing",outcome="ok"}')).toBe(4);
    expect(sample(body, 'listing_sync_runs{status="done"}')).toBe(1);
    passed = true;
  }, 40_000);
});
