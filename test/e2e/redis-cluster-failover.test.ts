/**
 * `listing-sync sync --work` and `worker` (the built CLI as processes) on a real Redis Cluster of
 * 3 masters, each with a replica, while a master fails mid-run (SIGKILL) and its replica takes its
 * slots over: the chatbot's own master (ledger, claims, lease, run; a master that does not serve
 * the writes queue, checked), then the master of the writes queue. Runs are of a size that
 * carries 8 listings a job (the default), at the default concurrency, and the service keeps its
 * pace through the kill. The command finishes by itself, converged, exit 0, without a stack trace
 * or a forced exit; the simulator saw no listing created twice, and the same feed again plans
 * nothing. A stop asked during the failover ends within the forced-exit bound. And a master down with no
 * replica to take over: short commands and `sync --work` say so in one line, exit 1, send
 * nothing (they used to hang, or exit 13 without a word). REDIS_URL points where nothing
 * listens, so only the cluster can have served the CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis, type Cluster } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFeedCsv } from '../../bench/generate-feed.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { storeKeys } from '../../src/store/keys.js';
import { linesSaying, PROMPT_EXIT_MS, stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { expectConverged } from '../helpers/converged.js';
import { hasRedisClusterTools, startRedisCluster, type RedisClusterProcess } from '../helpers/redis-cluster.js';
import { uniquePrefix } from '../helpers/redis.js';
import { cliEnv, startTestSim } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

/**
 * Why these chatbots: in a 3-master cluster made by `redis-cli --cluster create` the slot ranges
 * are fixed, and `{bot-demo}` hashes to the first master while `{listing-writes}` and
 * `{request-permits}` hash to the second: killing BOT's master pauses the chatbot's keys alone
 * (the test checks it). `bot-failover` shares the writes queue's master, the case where both stop.
 */
const BOT = 'bot-demo';
const QUEUE_BOT = 'bot-failover';
/** Enough writes for carriers of 8 (jobs/support/listing-batches.ts: 512 and more). */
const ROWS = 1_500;
const QUEUE_KEY = (prefix: string): string => `${prefix}:{listing-writes}:meta`;

let cluster: RedisClusterProcess | undefined;
let client: Cluster | undefined;
let sim: RunningSimulator | undefined;
let sync: CliProcess | undefined;
/** Other processes a test started (a dashboard). */
let others: CliProcess[] = [];
let dir = '';

afterEach(async () => {
  await Promise.all([...(sync ? [sync] : []), ...others].map((process) => process.kill()));
  sync = undefined;
  others = [];
  await sim?.close();
  sim = undefined;
  client?.disconnect();
  client = undefined;
  await cluster?.close();
  cluster = undefined;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `cluster_state` as the node on `port` reports it. */
async function clusterStateOn(port: number): Promise<string | undefined> {
  const node = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  node.on('error', () => undefined);
  try {
    await node.connect();
    return /cluster_state:(\w+)/.exec(String(await node.call('CLUSTER', 'INFO')))?.[1];
  } catch {
    return undefined;
  } finally {
    node.disconnect();
  }
}

/** The port of the master serving `key`'s slot now. */
async function masterPortOf(key: string): Promise<number> {
  if (client === undefined) throw new Error('no cluster');
  const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
  const shards = (await client.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
  const shard = shards.find(([from, to]) => slot >= from && slot <= to);
  if (shard === undefined) throw new Error(`no master serves slot ${slot}`);
  return shard[2][1];
}

interface Scenario {
  started: RedisClusterProcess;
  s: RunningSimulator;
  prefix: string;
  feed: string;
  env: Record<string, string>;
}

interface ScenarioOptions {
  replicas: number;
  rows: number;
  seed: number;
  extra?: Record<string, string>;
  /** The chatbot the simulator holds and the feed is for (default BOT). */
  bot?: string;
  /** The cluster's node timeout (default 2 s): how long the failover's pause lasts, about. */
  nodeTimeoutMs?: number;
}

/** A cluster (3 masters, `replicas` each), the simulator (40 ms) holding the chatbot, and a feed of `rows` listings: the env a CLI needs. */
async function startScenario(options: ScenarioOptions): Promise<Scenario> {
  const { replicas, rows, seed, extra = {}, bot = BOT } = options;
  const started = await startRedisCluster({
    masters: 3,
    replicas,
    ...(options.nodeTimeoutMs === undefined ? {} : { nodeTimeoutMs: options.nodeTimeoutMs }),
  });
  cluster = started;
  client = started.client();
  const prefix = uniquePrefix('cluster-failover');
  const s = await startTestSim({ chatbots: [bot], faults: { latencyMs: 40 } });
  sim = s;
  dir = mkdtempSync(join(tmpdir(), 'ls-failover-'));
  const feed = join(dir, 'feed.csv');
  await writeFeedCsv(feed, { listings: rows, seed, profile: 'native' });
  // REDIS_URL where nothing listens: only the cluster can serve the CLI.
  return { started, s, prefix, feed, env: cliEnv(s, 'redis://127.0.0.1:1', prefix, { REDIS_CLUSTER_NODES: started.nodes, ...extra }) };
}

/**
 * The master serving `bot`'s keys, checked against the writes queue's: `alone` says whether the
 * test means a master that serves the chatbot's keys and not the queue's (or both).
 */
async function chatbotMaster(prefix: string, bot: string, alone: boolean): Promise<number> {
  const master = await masterPortOf(storeKeys(prefix, 'cluster').lease(bot));
  const queueMaster = await masterPortOf(QUEUE_KEY(prefix));
  if (alone) expect(master, "the chatbot's master serves the writes queue too").not.toBe(queueMaster);
  else expect(master, "the chatbot's master is not the writes queue's").toBe(queueMaster);
  return master;
}

/**
 * Kills the master on `victim` once a fifth of the listings were written, the service at its
 * usual pace (jobs in flight are then between their Redis calls as often as in their requests),
 * and waits until its replica serves `key`'s slot. Why a fifth: the rest takes seconds even on
 * a fast machine, far more than the kill.
 */
async function killMidRun(sc: Scenario, bot: string, victim: number, key: string): Promise<void> {
  await until(() => sc.s.state.listings(bot).length >= ROWS / 5, 60_000);
  await sc.started.kill(victim);
  expect(sc.s.state.listings(bot).length, 'killed mid-run').toBeLessThan(ROWS);
  // The replica is promoted after the node timeout: until then the slot has no master.
  const promoted = Date.now() + 30_000;
  let now = victim;
  while (now === victim && Date.now() < promoted) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    now = await masterPortOf(key).catch(() => victim);
  }
  expect(now, 'the replica took the slot over').not.toBe(victim);
}

/** The line the process says while the master is lost (redis-watch.ts). */
const WAITING_FOR_REDIS = /master 127\.0\.0\.1:\d+ is not answering .*waiting for Redis while its replica takes its slots over/;

interface Summary {
  result?: { created: number; failed: number };
}

describe.skipIf(!hasRedisClusterTools())('sync --work and worker on a Redis Cluster through a master failover', () => {
  const victims = [
    { which: "the chatbot's own master (ledger, claims, lease, run; not the writes queue's)", bot: BOT, alone: true },
    { which: "the writes queue's master, which is the chatbot's too", bot: QUEUE_BOT, alone: false },
  ];
  for (const { which, bot, alone } of victims) {
    it(`${which} SIGKILLed mid-run, carriers of 8, its replica promoted: finishes by itself, exit 0, converged, zero duplicate creates`, async () => {
      const sc = await startScenario({ replicas: 1, rows: ROWS, seed: 11, bot });
      const victim = await chatbotMaster(sc.prefix, bot, alone);
      sync = startCli(['sync', '--chatbot', bot, '--feed', sc.feed, '--work', '--json'], sc.env);
      await killMidRun(sc, bot, victim, storeKeys(sc.prefix, 'cluster').lease(bot));

      const code = await sync.exited(150_000);
      const stderr = sync.stderr();
      expect(code, stderr).toBe(0);
      const summary = jsonOf<Summary>({ code: 0, stdout: sync.stdout(), stderr });
      expect(summary.result).toMatchObject({ created: ROWS, failed: 0 });
      // The pause said so while it lasted; the release ended within its bound.
      expect(stderr).toMatch(WAITING_FOR_REDIS);
      expect(stderr).not.toMatch(/forcing exit|CROSSSLOT|slots allocation group|None of startup nodes/);
      expect(stackTraceLines(stderr), stderr).toEqual([]);
      // The outage (a line per 5 s of it), maybe one about locks lost in it: no flood.
      expect(linesSaying(stderr, /./).length, stderr).toBeLessThanOrEqual(8);
      await expectConverged(sc.s, bot, ROWS, sc.feed, sc.env);
    }, 240_000);
  }

  it("a stop while the run is still enqueuing and the chatbot's master fails over: prompt exit 1, one line; resume finishes what was queued, a new sync the rest, every listing once", async () => {
    // A node timeout of 10 s: the stop comes well inside the pause (the line below is said at
    // its start), and what it judges is that the stop does not wait for the replica to end it.
    // Twice the rows: the paced enqueue (enqueue-pace.ts) is still adding chunks at the kill.
    const rows = 2 * ROWS;
    const sc = await startScenario({ replicas: 1, rows, seed: 7, nodeTimeoutMs: 10_000 });
    const keys = storeKeys(sc.prefix, 'cluster');
    const victim = await chatbotMaster(sc.prefix, BOT, true);
    sync = startCli(['sync', '--chatbot', BOT, '--feed', sc.feed, '--work'], sc.env);
    await until(() => sc.s.state.listings(BOT).length >= ROWS / 5, 60_000);
    const runId = (await client?.zrange(keys.runsOfChatbot(BOT), '0', '-1'))?.[0] ?? '';
    expect(await client?.hget(keys.run(BOT, runId), 'status'), 'still enqueuing at the kill').toBe('enqueuing');
    await sc.started.kill(victim);
    await sync.waitFor(WAITING_FOR_REDIS, 30_000);
    const stopped = await sync.stop('SIGTERM');
    const stderr = sync.stderr();
    expect(stopped.ms, stderr).toBeLessThan(PROMPT_EXIT_MS);
    // Interrupted is exit 1 (src/shared/error-codes.ts INTERRUPTED), the run left to `runs resume`.
    expect(stopped.code, stderr).toBe(1);
    const said = stderr.split('\n').filter((line) => /interrupted/.test(line));
    expect(said, stderr).toHaveLength(1);
    expect(said[0]).toMatch(
      new RegExp(
        `interrupted while enqueuing run ${runId}: at least \\d+ of its ${rows} jobs are in the queue .*\`listing-sync runs resume ${runId} --work\``,
      ),
    );
    expect(stderr).not.toMatch(/forcing exit/);
    expect(stackTraceLines(stderr), stderr).toEqual([]);

    // Once the replica took the slots over: the resume works what was queued, to done.
    const promoted = Date.now() + 30_000;
    while ((await masterPortOf(keys.lease(BOT)).catch(() => victim)) === victim && Date.now() < promoted)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const resumed = await runCli(['runs', 'resume', runId, '--work', '--json'], sc.env, 120_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = jsonOf<Summary & { status: string }>(resumed);
    expect(summary.status).toBe('done');
    const held = sc.s.state.listings(BOT).length;
    expect(summary.result?.failed).toBe(0);
    expect(held, 'the rest was never queued').toBeLessThan(rows);
    expect(sc.s.state.duplicateCreates(BOT)).toEqual([]);
    // The rest: planned by the next sync, and nothing twice.
    const rest = await runCli(['sync', '--chatbot', BOT, '--feed', sc.feed, '--work', '--json'], sc.env, 120_000);
    expect(rest.code, rest.stderr).toBe(0);
    expect(jsonOf<Summary>(rest).result).toMatchObject({ created: rows - held, failed: 0 });
    await expectConverged(sc.s, BOT, rows, sc.feed, sc.env);
  }, 240_000);

  it("a worker and a dashboard through the chatbot's own master's failover: the run worked to done, zero duplicate creates, pages answer again, prompt stop", async () => {
    const sc = await startScenario({ replicas: 1, rows: ROWS, seed: 5, extra: { LOG_LEVEL: 'info' } });
    const { s, feed, env } = sc;
    const enqueued = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--json'], env, 60_000);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const { runId } = jsonOf<{ runId: string }>(enqueued);
    const victim = await chatbotMaster(sc.prefix, BOT, true);
    const worker = startCli(['worker'], env);
    sync = worker;
    await worker.waitFor(/workers started/, 30_000);
    const dashboard = startCli(['dashboard', '--insecure-local', '--port', '0'], env);
    others.push(dashboard);
    await dashboard.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\//);
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(dashboard.stdout())?.[1] ?? '';
    const page = async (path: string): Promise<{ status: number; body: string }> => {
      const response = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      return { status: response.status, body: await response.text() };
    };

    await killMidRun(sc, BOT, victim, storeKeys(sc.prefix, 'cluster').lease(BOT));

    await until(() => s.state.listings(BOT).length >= ROWS, 150_000);
    let shown: string;
    const end = Date.now() + 30_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      shown = (await runCli(['runs', 'show', runId, '--json'], env)).stdout;
    } while (!/"status":\s*"done"/.test(shown) && Date.now() < end);
    expect(shown).toMatch(/"status":\s*"done"/);
    await expectConverged(s, BOT, ROWS, feed, env);
    expect(await page('/')).toMatchObject({ status: 200, body: expect.stringContaining(runId) as string });
    expect(await page(`/runs/${runId}`)).toMatchObject({ status: 200, body: expect.stringContaining('1,500') as string });
    expect((await page('/metrics')).status).toBe(200);
    const workerStop = await worker.stop();
    expect(workerStop).toMatchObject({ code: 0 });
    expect(workerStop.ms).toBeLessThan(PROMPT_EXIT_MS);
    expect(await dashboard.stop()).toMatchObject({ code: 0 });
    expect(worker.stderr()).toMatch(WAITING_FOR_REDIS);
    for (const output of [worker.stderr(), dashboard.stderr()]) {
      expect(stackTraceLines(output), output).toEqual([]);
      expect(output).not.toMatch(/Too many Cluster redirections|CROSSSLOT|forcing exit|None of startup nodes/);
    }
  }, 300_000);

  it('a master down with no replica: sync, runs list and sync --work each say so in one line, exit 1, nothing sent', async () => {
    const { started, s, prefix, feed, env } = await startScenario({ replicas: 0, rows: 20, seed: 3 });
    const victim = await masterPortOf(storeKeys(prefix, 'cluster').lease(BOT));
    await started.kill(victim);
    // Why wait: until the node timeout (2 s) has passed, the other masters still report the
    // cluster ok and a command whose keys they serve succeeds; the case here is the cluster that
    // knows its master is gone (a CLI that starts fast used to land inside that window).
    await until(async () => {
      const states = await Promise.all(started.ports.filter((port) => port !== victim).map(clusterStateOn));
      return states.every((state) => state === 'fail');
    });

    for (const args of [
      ['sync', '--chatbot', BOT, '--feed', feed],
      ['runs', 'list'],
      ['sync', '--chatbot', BOT, '--feed', feed, '--work'],
    ]) {
      const run = await runCli(args, env, 60_000);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr).toMatch(/^listing-sync: (lost Redis|cannot reach Redis) \(.+\): check .*REDIS_CLUSTER_NODES/);
      expect(stackTraceLines(run.stderr)).toEqual([]);
    }
    expect(s.state.writeCalls()).toBe(0);
  }, 120_000);
});
