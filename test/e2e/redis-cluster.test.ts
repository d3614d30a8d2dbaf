/**
 * listing-sync on a real Redis Cluster (3 masters from `redis-server --cluster-enabled yes`, made
 * by the test): `sync --work` under every fault the simulator injects converges with zero
 * duplicate creates for chatbots whose keys live on different masters; `worker` processes share
 * one --global-concurrency (the request permit pool, one key in its own slot); `runs`, `jobs`, `schedule`, `alerts`, `sources`, `doctor` and the dashboard (bull-board
 * included) answer; the demo runs with REDIS_CLUSTER_NODES set. Every process points REDIS_URL at a port where nothing listens, so only the
 * cluster can have served them; a CROSSSLOT error anywhere fails the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFeedCsv } from '../../bench/generate-feed.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { storeKeys } from '../../src/store/keys.js';
import { createStore } from '../../src/store/store.js';
import { replicationFeedId } from '../../src/sync/replication-ids.js';
import { stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { hasRedisClusterTools, startRedisCluster, type RedisClusterProcess } from '../helpers/redis-cluster.js';
import { uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { jsonOf, runCli, type CliRun } from '../helpers/run-cli.js';

const FAULTS = { http503Rate: 0.05, envelopeFailureRate: 0.08, rateLimitRate: 0.02, commitThenDropRate: 0.03, seed: 7 };
const CHATBOTS = ['bot-north', 'bot-south', 'bot-east'];

let cluster: RedisClusterProcess | undefined;
let client: Cluster | undefined;
let sim: RunningSimulator | undefined;
let processes: CliProcess[] = [];
let dir = '';

beforeAll(async () => {
  if (!hasRedisClusterTools()) return;
  cluster = await startRedisCluster();
  client = cluster.client();
  dir = mkdtempSync(join(tmpdir(), 'ls-cluster-feeds-'));
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await cluster?.close();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(processes.map((p) => p.kill()));
  processes = [];
  await sim?.close();
  sim = undefined;
});

function clusterEnv(s: RunningSimulator, prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  // REDIS_URL where nothing listens: a command that used it instead of the cluster would fail.
  return cliEnv(s, 'redis://127.0.0.1:1', prefix, { REDIS_CLUSTER_NODES: cluster?.nodes ?? '', ...extra });
}

async function feedFile(name: string, listings: number, seed: number): Promise<string> {
  const path = join(dir, `${name}.csv`);
  await writeFeedCsv(path, { listings, seed, profile: 'native' });
  return path;
}

function expectClean(run: CliRun | CliProcess): void {
  const both = 'child' in run ? `${run.stdout()}\n${run.stderr()}` : `${run.stdout}\n${run.stderr}`;
  expect(both).not.toMatch(/CROSSSLOT|MOVED|slots allocation group/);
  expect(stackTraceLines(both), both).toEqual([]);
}

async function slotOf(key: string): Promise<number> {
  if (client === undefined) throw new Error('no cluster');
  return Number(await client.call('CLUSTER', 'KEYSLOT', key));
}

/** The master (by its port) serving the slot of `key`. */
async function masterOf(key: string): Promise<string> {
  const slot = await slotOf(key);
  const shards = (await client?.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
  const shard = shards.find(([from, to]) => slot >= from && slot <= to);
  return String(shard?.[2][1]);
}

/** Every key under `prefix` on every master. */
async function keysUnder(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of client?.nodes('master') ?? []) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}

interface SyncSummary {
  runId: string;
  plan: { create: number; update: number; delete: number; unchanged: number };
  result?: { created: number; updated: number; deleted: number; failed: number };
}

describe.skipIf(!hasRedisClusterTools())('on a Redis Cluster', () => {
  it('sync --work of three chatbots at once converges under every fault with zero duplicate creates, each chatbot in one slot', async () => {
    const prefix = uniquePrefix('cluster-sync');
    const s = await startTestSim({ chatbots: CHATBOTS, faults: FAULTS });
    sim = s;
    const feeds = await Promise.all(CHATBOTS.map((bot, i) => feedFile(bot, 150, i + 1)));
    const sync = (bot: string, feed: string): Promise<CliRun> =>
      runCli(['sync', '--chatbot', bot, '--feed', feed, '--work', '--json'], clusterEnv(s, prefix), 120_000);

    const first = await Promise.all(CHATBOTS.map((bot, i) => sync(bot, feeds[i] ?? '')));
    for (const [i, run] of first.entries()) {
      expect(run.code, run.stderr).toBe(0);
      expectClean(run);
      expect(jsonOf<SyncSummary>(run).result).toMatchObject({ created: 150, failed: 0 });
      const bot = CHATBOTS[i] ?? '';
      expect(s.state.listings(bot)).toHaveLength(150);
      expect(s.state.duplicateCreates(bot)).toEqual([]);
      expect(s.state.duplicates(bot, 'MLSNumber')).toEqual([]);
    }

    // Converged: the same feeds again plan nothing to write.
    const second = await Promise.all(CHATBOTS.map((bot, i) => sync(bot, feeds[i] ?? '')));
    for (const run of second) {
      expect(run.code, run.stderr).toBe(0);
      expect(jsonOf<SyncSummary>(run).plan).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 150 });
    }

    // The layout: each chatbot's keys (ledger, runs, leases…) share one slot, the chatbots spread
    // over the masters, and each queue's keys share one slot of their own.
    const keys = await keysUnder(prefix);
    const layout = storeKeys(prefix, 'cluster');
    const masters = new Set<string>();
    for (const bot of CHATBOTS) {
      const own = keys.filter((key) => key.includes(`{${bot}}`));
      expect(own).toContain(layout.ledger(bot, 'MLSNumber'));
      expect(own.some((key) => key.startsWith(`${prefix}:ls:run:{${bot}}:`))).toBe(true);
      const slots = new Set(await Promise.all(own.map(slotOf)));
      expect(slots.size).toBe(1);
      masters.add(await masterOf(layout.ledger(bot, 'MLSNumber')));
    }
    expect(masters.size).toBeGreaterThan(1);
    const queueKeys = keys.filter((key) => key.startsWith(`${prefix}:{listing-writes}:`));
    expect(queueKeys.length).toBeGreaterThan(0);
    expect(new Set(await Promise.all(queueKeys.map(slotOf))).size).toBe(1);
  }, 240_000);

  it('sync --work of a run longer than the pace keeps ahead: its looks at the run and the queue work on the cluster, and the run converges', async () => {
    const prefix = uniquePrefix('cluster-pace');
    // ~200 writes/s (4 in flight at 20 ms): the pace holds 1,200 jobs back to ~500 ahead for most of the run.
    const s = await startTestSim({ chatbots: ['bot-paced'], faults: { latencyMs: 20 } });
    sim = s;
    const feed = await feedFile('bot-paced', 1200, 11);
    const run = await runCli(
      ['sync', '--chatbot', 'bot-paced', '--feed', feed, '--work', '--concurrency', '4', '--json'],
      clusterEnv(s, prefix),
      120_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expectClean(run);
    expect(jsonOf<SyncSummary>(run).result).toMatchObject({ created: 1200, failed: 0 });
    expect(s.state.listings('bot-paced')).toHaveLength(1200);
    expect(s.state.duplicateCreates('bot-paced')).toEqual([]);
  }, 150_000);

  it('three worker processes share --global-concurrency (the request permit pool on the cluster): the service never sees more in flight', async () => {
    const prefix = uniquePrefix('cluster-workers');
    const s = await startTestSim({ chatbots: ['bot-many'], faults: { latencyMs: 20 } });
    sim = s;
    const env = clusterEnv(s, prefix, { LOG_LEVEL: 'info' });
    const enqueued = await runCli(['sync', '--chatbot', 'bot-many', '--feed', await feedFile('many', 240, 9), '--json'], env, 60_000);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const { runId } = jsonOf<SyncSummary>(enqueued);
    for (let i = 0; i < 3; i += 1) {
      const worker = startCli(['worker', '--concurrency', '8', '--global-concurrency', '4'], env);
      processes.push(worker);
    }
    await Promise.all(processes.map((worker) => worker.waitFor(/workers started/, 30_000)));
    // The request permit pool: one key under its own hash tag, every worker holding a lease in it.
    const pool = storeKeys(prefix, 'cluster').requestPermits();
    expect(pool).toBe(`${prefix}:ls:{request-permits}`);
    const end0 = Date.now() + 10_000;
    while ((await client?.hlen(pool)) !== 4 && Date.now() < end0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await client?.hlen(pool)).toBe(4); // `born` and three holders
    let shown: CliRun | undefined;
    const end = Date.now() + 90_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      shown = await runCli(['runs', 'show', runId, '--json'], env);
    } while (!/"status":\s*"done"/.test(shown.stdout) && Date.now() < end);
    expect(shown.stdout).toMatch(/"status":\s*"done"/);
    expect(s.state.listings('bot-many')).toHaveLength(240);
    expect(s.state.duplicateCreates('bot-many')).toEqual([]);
    expect(s.state.maxInFlight()).toBeGreaterThan(1);
    expect(s.state.maxInFlight()).toBeLessThanOrEqual(4);
    for (const worker of processes) expect(await worker.stop()).toMatchObject({ code: 0 });
    for (const worker of processes) expectClean(worker);
    expect(await client?.hkeys(pool)).toEqual(['born']); // every lease given back on SIGTERM
  }, 180_000);

  it('runs, jobs, schedule, alerts, sources, doctor and the dashboard (bull-board included) work on the cluster', async () => {
    const prefix = uniquePrefix('cluster-ops');
    const s = await startTestSim({ chatbots: ['bot-ops'] });
    sim = s;
    // Completed jobs kept (the default deletes them as they complete), so that bull-board lists some below.
    const env = clusterEnv(s, prefix, { LISTING_SYNC_KEEP_COMPLETED: '1000' });
    const feed = await feedFile('ops', 20, 3);
    const synced = await runCli(['sync', '--chatbot', 'bot-ops', '--feed', feed, '--work', '--json'], env, 60_000);
    expect(synced.code, synced.stderr).toBe(0);
    const { runId } = jsonOf<SyncSummary>(synced);

    const listed = await runCli(['runs', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(runId);
    const key = s.state.listings('bot-ops')[0]?.MLSNumber ?? '';
    const found = await runCli(['jobs', 'find', key], env);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain(runId);
    const failed = await runCli(['jobs', 'failed'], env);
    expect(failed.code, failed.stderr).toBe(0);

    const added = await runCli(['schedule', 'add', 'nightly', '--chatbot', 'bot-ops', '--feed', feed, '--cron', '0 3 * * *'], env);
    expect(added.code, added.stderr).toBe(0);
    const schedules = await runCli(['schedule', 'list'], env);
    expect(schedules.stdout).toContain('nightly');
    expect((await runCli(['schedule', 'remove', 'nightly'], env)).code).toBe(0);

    // Alerts: stored, listed (masked), a sample delivered, and a guard refusal alerted once.
    const receiver = await startWebhookReceiver();
    const alertRuns: CliRun[] = [];
    try {
      const hook = `${receiver.url}/hooks/cluster-secret-token`;
      alertRuns.push(await runCli(['alerts', 'add', 'ops', '--webhook', hook, '--format', 'json'], env));
      alertRuns.push(await runCli(['alerts', 'list'], env));
      alertRuns.push(await runCli(['alerts', 'test', 'ops'], env));
      const refused = await runCli(['sync', '--chatbot', 'bot-ops', '--feed', await feedFile('ops-few', 5, 3), '--work'], env, 60_000);
      alertRuns.push(refused);
      expect(alertRuns.map((run) => run.code)).toEqual([0, 0, 0, 3]);
      expect(alertRuns[1]?.stdout).toContain('ops');
      expect(alertRuns[1]?.stdout).not.toContain('cluster-secret-token');
      const statuses = receiver.accepted().map((body) => (body as { status?: string }).status);
      expect(statuses.filter((status) => status === 'refused')).toHaveLength(1);
      expect(receiver.accepted().length).toBeGreaterThanOrEqual(2);
    } finally {
      await receiver.close();
    }

    // Replication sources of chatbots on different masters, as `sources list` reads them.
    if (client === undefined) throw new Error('no cluster');
    const store = createStore(client, prefix);
    for (const bot of CHATBOTS) {
      const feedUrl = `https://${bot}.example/odata/Property`;
      await store.feedSources.recordRun(bot, replicationFeedId(feedUrl), {
        feed: feedUrl,
        runId: `run-of-${bot}`,
        status: 'done',
        recordsPulled: 3,
        requests: 1,
        bytes: 100,
      });
    }
    const sources = await runCli(['sources', 'list', '--json'], env);
    expect(sources.code, sources.stderr).toBe(0);
    expect(jsonOf<{ sources: Array<{ chatbot: string }> }>(sources).sources.map((source) => source.chatbot)).toEqual([...CHATBOTS].sort());

    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout).toMatch(/^Redis cluster 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+, prefix /);
    expect(doctor.stdout).toMatch(/run-records\s+2\s/);

    const dashboard = startCli(['dashboard', '--insecure-local', '--port', '0'], env);
    processes.push(dashboard);
    await dashboard.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\//);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(dashboard.stdout())?.[1] ?? '';
    const page = async (path: string): Promise<{ status: number; body: string }> => {
      const response = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      return { status: response.status, body: await response.text() };
    };
    expect(await page('/')).toMatchObject({ status: 200, body: expect.stringContaining(runId) as string });
    expect(await page(`/runs/${runId}`)).toMatchObject({
      status: 200,
      body: expect.stringContaining('<dt>Created</dt><dd>20</dd>') as string,
    });
    expect(await page(`/search?key=${key}`)).toMatchObject({ status: 200, body: expect.stringContaining(runId) as string });
    expect((await page('/queues/')).status).toBe(200);
    // The alerts page links bull-board's alerts queue by the name it has on a cluster ({alerts}).
    const alertsView = await page('/alerts');
    expect(alertsView.status).toBe(200);
    expect(alertsView.body).toContain('/queues/queue/%7Balerts%7D?status=failed');
    const api = await page('/queues/api/queues?activeQueue=%7Blisting-writes%7D&status=completed&page=1&jobsPerPage=10');
    expect(api.status).toBe(200);
    expect(api.body).toContain(runId);
    const metrics = await page('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('bot-ops');
    expect((await dashboard.stop()).code).toBe(0);
    expectClean(dashboard);
    for (const run of [synced, listed, found, failed, added, schedules, sources, doctor, ...alertRuns]) expectClean(run);
  }, 120_000);

  it('the demo runs with REDIS_CLUSTER_NODES set', async () => {
    const run = await runCli(
      ['demo', '--exit-after-sync'],
      { HOME: process.env.HOME ?? '/tmp', REDIS_CLUSTER_NODES: cluster?.nodes ?? '' },
      90_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('demo: Redis from REDIS_CLUSTER_NODES');
    expect(run.stdout).toMatch(/result {2}created 12, updated 6, deleted 3, failed 0/);
    expect(run.stdout).toMatch(/replication {2}next run: 4 records pulled/);
    expectClean(run);
  }, 120_000);

  it('a password-protected cluster: the password in a URL entry reaches every node and appears in no output', async () => {
    const password = 'cluster-pw-Zq8!x';
    const guarded = await startRedisCluster({ password });
    try {
      const [first = '', ...rest] = guarded.nodes.split(',');
      const nodes = [`redis://:${encodeURIComponent(password)}@${first}`, ...rest].join(',');
      const s = await startTestSim({ chatbots: ['bot-pw'] });
      sim = s;
      const env = { ...clusterEnv(s, uniquePrefix('cluster-pw'), { LOG_LEVEL: 'debug' }), REDIS_CLUSTER_NODES: nodes };
      const runs = [
        await runCli(['sync', '--chatbot', 'bot-pw', '--feed', await feedFile('pw', 10, 5), '--work'], env, 60_000),
        await runCli(['runs', 'list'], env),
        await runCli(['doctor', '--json'], env),
      ];
      expect(runs.map((run) => run.code)).toEqual([0, 0, 1]); // doctor: appendonly is off on these nodes
      expect(s.state.listings('bot-pw')).toHaveLength(10);
      // Without the password every node refuses: one clear line naming the setting, exit 2.
      const refused = await runCli(['runs', 'list'], { ...env, REDIS_CLUSTER_NODES: guarded.nodes });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/REDIS_CLUSTER_NODES/);
      for (const run of [...runs, refused]) {
        expect(`${run.stdout}${run.stderr}`).not.toContain(password);
        expect(`${run.stdout}${run.stderr}`).not.toContain(encodeURIComponent(password));
        expectClean(run);
      }
    } finally {
      await guarded.close();
    }
  }, 120_000);
});
