/**
 * The alerts worker against a real webhook server: a webhook that does not answer in time is
 * retried (and the attempt recorded as a timeout), one that answers 500 is retried, one that
 * answers 410 is given up at once; every attempt is in the delivery log, none names the URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { postWebhook } from '../../src/api/webhook.js';
import type { AlertMessage } from '../../src/domain/health/alert-body.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { addAlertJob, waitForAlertJobs } from '../../src/queue/alert-jobs.js';
import { startAlertWorker, type RunningAlertWorker } from '../../src/queue/alert-worker.js';
import { createRedisWatch } from '../../src/queue/redis-watch.js';
import { AlertStore } from '../../src/store/alert-store.js';
import type { AlertConfig } from '../../src/store/alert-config.js';
import { webhookSealOf } from '../../src/domain/health/webhook-seal.js';
import { deliveryDeps } from '../../src/cli/wiring/alert-wiring.js';
import { resolveConfig } from '../../src/config/config.js';
import { openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
const SECRET = 'alert-delivery-secret-path-9f';

let bench: QueueBench | undefined;
let worker: RunningAlertWorker | undefined;
let server: Server | undefined;
let passed = false;

afterEach(async () => {
  await worker?.close();
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await bench?.close(passed);
  worker = undefined;
  server = undefined;
  bench = undefined;
  passed = false;
});

/** A webhook that answers each request as `script` says: a status, or 'hang' (never answers). */
async function startHook(script: Array<number | 'hang'>): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((req, res) => {
    req.resume();
    const step = script[hits] ?? 200;
    hits += 1;
    if (step !== 'hang') res.writeHead(step).end();
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${SECRET}`, hits: () => hits };
}

const message: AlertMessage = {
  status: 'failed',
  previousStatus: 'healthy',
  chatbot: 'bot-deliver',
  runId: 'run-0000000001-aa',
  startedAt: '2026-01-10T02:00:00.000Z',
  counts: { created: 0, updated: 0, deleted: 0, failed: 1, rejected: 0 },
  reasons: ['1 listing failed for good'],
};

/** How a test stores the configuration (default: saved by the worker's own store, sealed under its key). */
type Save = (config: AlertConfig, alerts: AlertStore, b: QueueBench) => Promise<unknown>;

/** `stored`: the webhook saved instead of the local hook's URL, delivered through the CLI's wiring (deliveryDeps). */
async function deliver(
  script: Array<number | 'hang'>,
  jobId: string,
  stored?: string,
  save: Save = (config, alerts) => alerts.saveConfig(config),
): Promise<{ state: string; hits: number; alerts: AlertStore }> {
  bench ??= await openQueueBench(redisUrl, {}, 'alert-delivery');
  const hook = await startHook(script);
  const alerts = new AlertStore(bench.redis, bench.prefix, webhookSealOf(bench.seal.key));
  await save(configOf(stored ?? hook.url), alerts, bench);
  const watch = createRedisWatch(silentLogger(), { label: 'redis', intervalMs: 5000 });
  worker = await startAlertWorker({
    redis: { url: redisUrl, prefix: bench.prefix },
    seal: bench.seal,
    watch,
    deps:
      stored === undefined
        ? { alerts, post: postWebhook, timeoutMs: 300, now: () => Date.now() }
        : deliveryDeps(alerts, resolveConfig({ env: {} })),
    logger: silentLogger(),
  });
  await addAlertJob(bench.queues.alerts, jobId, { alert: 'ops', message }, { attempts: 4, backoffMs: 10, keepFailedDays: 1 });
  expect(await waitForAlertJobs(bench.queues.alerts, [jobId], 15_000)).toEqual([]);
  return { state: await bench.queues.alerts.getJobState(jobId), hits: hook.hits(), alerts };
}

function configOf(webhook: string): AlertConfig {
  return { name: 'ops', webhook, format: 'json', on: ['failed'], chatbots: [], staleAfterMs: 3_600_000, createdAt: 0 };
}

describe('alert delivery', () => {
  it('retries a webhook that times out, then answers 500, until it accepts', async () => {
    const { state, hits, alerts } = await deliver(['hang', 500, 200], 'alert.retry');
    expect(state).toBe('completed');
    expect(hits).toBe(3);
    const log = await alerts.deliveries();
    expect(log.map((d) => [d.attempt, d.ok, d.httpStatus ?? null])).toEqual([
      [3, true, 200],
      [2, false, 500],
      [1, false, null],
    ]);
    expect(log[2]?.error).toBe('the webhook did not answer within 300 ms');
    expect(JSON.stringify(log)).not.toContain(SECRET);
    const failedReasons = JSON.stringify(await bench?.queues.alerts.getJob('alert.retry'));
    expect(failedReasons).not.toContain(SECRET);
    passed = true;
  }, 30_000);

  it('gives up at once on a webhook that answers 410 (gone)', async () => {
    const { state, hits, alerts } = await deliver([410], 'alert.gone');
    expect(state).toBe('failed');
    expect(hits).toBe(1);
    const job = await bench?.queues.alerts.getJob('alert.gone');
    expect(job?.failedReason).toBe('the webhook answered HTTP 410');
    expect((await alerts.deliveries())[0]).toMatchObject({ ok: false, httpStatus: 410, attempt: 1 });
    passed = true;
  }, 30_000);

  it('refuses a stored plain-http webhook to another machine at once, unretried, before any connection', async () => {
    const { state, alerts } = await deliver([], 'alert.clear', `http://hooks.invalid/${SECRET}`);
    expect(state).toBe('failed');
    const refusal =
      'the alert webhook is plain http to hooks.invalid, which would send the webhook URL (a credential: its path, query and user info) in clear: ' +
      'use an https:// URL (plain http is allowed only to this machine: 127.0.0.1, ::1 or localhost)';
    const job = await bench?.queues.alerts.getJob('alert.clear');
    expect(job?.failedReason).toBe(refusal);
    expect(job?.attemptsMade).toBe(1);
    expect((await alerts.deliveries())[0]).toMatchObject({ ok: false, attempt: 1, error: refusal });
    expect(JSON.stringify(job)).not.toContain(SECRET);
    passed = true;
  }, 30_000);

  it('fails at once, unretried, naming LISTING_SYNC_JOB_KEY, a webhook sealed under another job key', async () => {
    const { state, hits, alerts } = await deliver([200], 'alert.other-key', undefined, (config, _alerts, b) =>
      new AlertStore(b.redis, b.prefix, webhookSealOf('another installation key')).saveConfig(config),
    );
    expect(state).toBe('failed');
    expect(hits).toBe(0);
    const refusal =
      "alert ops's webhook cannot be opened with this process's job key: set the LISTING_SYNC_JOB_KEY it was stored with, " +
      'or enter the webhook again with `listing-sync alerts add ops --webhook URL`';
    const job = await bench?.queues.alerts.getJob('alert.other-key');
    expect(job?.failedReason).toBe(refusal);
    expect(job?.attemptsMade).toBe(1);
    expect((await alerts.deliveries())[0]).toMatchObject({ ok: false, attempt: 1, error: refusal });
    passed = true;
  }, 30_000);

  it('still delivers to a configuration stored before sealing (a plain webhook), and seals it when saved again', async () => {
    const { state, hits, alerts } = await deliver([200], 'alert.legacy', undefined, (config, a, b) =>
      b.redis.hset(a.keys.configs(), config.name, JSON.stringify(config)),
    );
    expect([state, hits]).toEqual(['completed', 1]);
    const legacy = await alerts.getConfig('ops');
    expect(typeof legacy?.webhook).toBe('string');
    if (legacy !== undefined) await alerts.saveConfig(legacy);
    const raw = (await bench?.redis.hget(alerts.keys.configs(), 'ops')) ?? '';
    expect(raw).not.toContain('"webhook":"http');
    expect(JSON.parse(raw)).toMatchObject({
      webhook: { v: 1 },
      webhookShown: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\*\*\*$/),
    });
    passed = true;
  }, 30_000);
});
