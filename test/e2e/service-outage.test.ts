/**
 * A 150 s outage of the service in the middle of a 1,500-listing run (every connection reset, the
 * simulator's `outage` fault), under `listing-sync worker` and under `sync --work`, with the built
 * CLI as processes: the run converges to done with 0 failed and 0 duplicate creates, and ends
 * within 60 s of the service returning (the breaker probes at most 30 s apart: its promise, held
 * here with that bound and the figure printed). The breaker shows on the dashboard's /metrics
 * (`listing_sync_service_up` 0 while down, 1 after) and as a banner on its pages, the webhook hears
 * `service-down` then `recovered`, and the CLI says one line per change, no stack trace, no raw
 * library error. These tests are long on purpose: the outage is the issue's.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/store.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { linesSaying, logLines, stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { feedScenarioPerTest, type FeedScenario } from '../helpers/feed-scenario.js';
import { CRASH_RECOVERY_ENV, cliEnv } from '../helpers/sim.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-outage';
const ROWS = 1500;
const OUTAGE_MS = 150_000;
/** The figure: the run ends within this long of the service returning. */
const ENDS_WITHIN_MS = 60_000;
/** Slow enough that the run is still going when a fifth of it is done (8 requests in flight: ~400 writes/s at most). */
const LATENCY_MS = 20;

const scenes = feedScenarioPerTest('outage');
let receiver: WebhookReceiver | undefined;
let redis: Redis | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await redis?.quit();
  redis = undefined;
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface Bench {
  scene: FeedScenario;
  env: Record<string, string>;
  dashboard: string;
  hooks: WebhookReceiver;
}

async function setup(): Promise<Bench> {
  const scene = await scenes.start({ chatbot: BOT, rows: ROWS, seed: 27, latencyMs: LATENCY_MS });
  const hooks = (receiver = await startWebhookReceiver());
  // Short client timeouts keep the probe's lease short; the health check every second announces the outage promptly.
  const env = cliEnv(scene.sim, scene.redisUrl, scene.prefix, {
    ...CRASH_RECOVERY_ENV,
    LOG_LEVEL: 'info',
    LISTING_SYNC_HEALTH_CHECK_MS: '1000',
  });
  const add = await runCli(['alerts', 'add', 'ops', '--webhook', `${hooks.url}/hooks/ops`], env);
  expect(add.code, add.stderr).toBe(0);
  const dashboardProcess = scenes.track(startCli(['dashboard', '--insecure-local', '--port', '0'], { ...env, LOG_LEVEL: 'warn' }));
  await dashboardProcess.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\//);
  const dashboard = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(dashboardProcess.stdout())?.[1] ?? '';
  return { scene, env, dashboard, hooks };
}

/** `listing_sync_service_up` as the dashboard's /metrics shows it now. */
async function serviceUp(dashboard: string): Promise<string | undefined> {
  const body = await (await fetch(`${dashboard}/metrics`)).text();
  return /^listing_sync_service_up (\d+)$/m.exec(body)?.[1];
}

async function bannerShown(dashboard: string): Promise<boolean> {
  const body = await (await fetch(`${dashboard}/`, { headers: { accept: 'text/html' } })).text();
  return body.includes('data-service="down"');
}

const statuses = (hooks: WebhookReceiver): string[] => hooks.accepted().map((body) => (body as { status: string }).status);

/**
 * Lets the run get going, takes the service down for OUTAGE_MS, checks what an operator sees
 * meanwhile, brings it back; resolves with when it came back (epoch ms).
 */
async function outageMidRun(bench: Bench, busy: CliProcess): Promise<number> {
  const { scene, dashboard, hooks } = bench;
  await until(() => scene.sim.state.listings(BOT).length >= ROWS / 5, 'a fifth of the listings created', 120_000);
  scene.sim.state.setFaults({ latencyMs: LATENCY_MS, outage: true });
  const downAt = Date.now();
  await busy.waitFor(/the service is down since/, 60_000);
  await until(async () => (await serviceUp(dashboard)) === '0', 'service_up 0 on /metrics');
  expect(await bannerShown(dashboard)).toBe(true);
  await until(() => statuses(hooks).includes('service-down'), 'the service-down alert');
  const createdDuring = scene.sim.state.listings(BOT).length;
  // The outage lasts as long as the (holding a state, not measuring one).
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt)));
  // Nothing was written while the service was down, and the work did not give up meanwhile.
  expect(scene.sim.state.listings(BOT).length).toBe(createdDuring);
  expect(scene.sim.state.outageResets()).toBeGreaterThan(0);
  scene.sim.state.setFaults({ latencyMs: LATENCY_MS });
  return Date.now();
}

/** What every scenario must show once the run ended. */
async function expectRecovered(bench: Bench, output: string, backAt: number, endedAt: number): Promise<void> {
  const { scene, dashboard, hooks } = bench;
  console.log(`service back → run done: ${((endedAt - backAt) / 1000).toFixed(1)} s (promise: within ${ENDS_WITHIN_MS / 1000} s)`);
  expect(scene.sim.state.listings(BOT)).toHaveLength(ROWS);
  expect(scene.sim.state.duplicateCreates(BOT)).toEqual([]);
  expect(scene.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
  await until(async () => (await serviceUp(dashboard)) === '1', 'service_up 1 on /metrics');
  expect(await bannerShown(dashboard)).toBe(false);
  await until(() => statuses(hooks).includes('recovered'), 'the recovered alert');
  expect(statuses(hooks)).toEqual(['service-down', 'recovered']);
  // One line per change, nothing per job, no stack trace, no raw library error.
  expect(linesSaying(output, /the service is down since/)).toHaveLength(1);
  expect(linesSaying(output, /the service answers again after \d+\.\d s: work resumes/)).toHaveLength(1);
  expect(stackTraceLines(output)).toEqual([]);
  const loud = logLines(output).filter((line) => typeof line.level === 'number' && line.level >= 40);
  // The whole lines in the message: a BullMQ error behind a warning shows only in its `err` field.
  expect(
    loud.map((line) => line.msg),
    JSON.stringify(loud),
  ).toEqual([expect.stringMatching(/^the service is down since .*: work is paused without using attempts/)]);
  const others = output
    .split('\n')
    .filter((line) => !/the service is down since|the service answers again/.test(line))
    .join('\n');
  expect(others).not.toMatch(/ECONNRESET|UND_ERR|SocketError|other side closed/);
}

describe('a 150 s service outage mid-run', () => {
  it('under `listing-sync worker`: the run pauses, resumes by itself and ends done with nothing failed or duplicated', async () => {
    const bench = await setup();
    const worker = scenes.track(startCli(['worker'], bench.env));
    await worker.waitFor(/workers started/);
    const sync = await runCli(['sync', '--chatbot', BOT, '--feed', bench.scene.feed, '--json'], bench.env);
    expect(sync.code, sync.stderr).toBe(0);
    const { runId } = jsonOf<{ runId: string }>(sync);

    const backAt = await outageMidRun(bench, worker);
    redis = new Redis(bench.scene.redisUrl);
    const counts = await waitForRun(createStore(redis, bench.scene.prefix), runId, {
      timeoutMs: ENDS_WITHIN_MS,
      timeoutFrom: backAt,
      pollMs: 100,
    });
    const endedAt = Date.now();
    expect(counts).toMatchObject({ created: ROWS, failed: 0, finishedJobs: ROWS, totalJobs: ROWS });
    const run = await runCli(['runs', 'show', runId, '--json'], bench.env);
    expect(jsonOf<{ status: string }>(run).status).toBe('done');
    await expectRecovered(bench, worker.stderr() + worker.stdout(), backAt, endedAt);
  }, 420_000);

  it('under `sync --work`: the command waits through it and exits 0 with nothing failed or duplicated', async () => {
    const bench = await setup();
    const sync = scenes.track(startCli(['sync', '--chatbot', BOT, '--feed', bench.scene.feed, '--work', '--json'], bench.env));
    const backAt = await outageMidRun(bench, sync);
    const code = await sync.exited(ENDS_WITHIN_MS + 30_000);
    const endedAt = Date.now();
    expect(code, sync.stderr()).toBe(0);
    const summary = JSON.parse(sync.stdout()) as { runId: string; result: { created: number; failed: number } };
    expect(summary.result).toMatchObject({ created: ROWS, failed: 0 });
    redis = new Redis(bench.scene.redisUrl);
    const record = await createStore(redis, bench.scene.prefix).runs.getRun(summary.runId);
    expect(record?.status).toBe('done');
    // The run's end (its record), not the process's exit (which waits for the alerts), is the promise's.
    expect((record?.finishedAt ?? Number.POSITIVE_INFINITY) - backAt).toBeLessThanOrEqual(ENDS_WITHIN_MS);
    await expectRecovered(bench, sync.stderr(), backAt, record?.finishedAt ?? endedAt);
  }, 420_000);
});
