/**
 * `listing-sync worker` processes (the built CLI) sharing --global-concurrency through the request
 * permit pool, judged by the simulator, which counts the requests in flight:
 * - two processes under G work a run to its end with more than G/2 and never more than G requests
 *   in flight (their pace beside G split by hand is a figure of `npm run bench:sync`, "Worker
 *   processes": a pace is not an outcome this machine's load may decide);
 * - a SIGKILLed worker's permits stay counted until its lease expires (the survivor keeps its
 *   share meanwhile), then come back to the survivor;
 * - `sync --work` beside a worker shares the same G;
 * - a queue already holding jobs, with BullMQ's global concurrency left on it by an earlier
 *   version, is worked under the pool (the old setting is removed at start, so it caps nothing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { writeFeedCsv } from '../../bench/generate-feed.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { startCli, type CliProcess } from '../helpers/cli-process.js';
import { feedOf, openQueueBench, type QueueBench } from '../helpers/queue.js';
import { CRASH_RECOVERY_ENV, cliEnv } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const url = inject('redisUrl');
const TTL_MS = 2000;
const dir = mkdtempSync(join(tmpdir(), 'ls-permits-'));

let bench: QueueBench | undefined;
let processes: CliProcess[] = [];
let passed = false;

afterEach(async () => {
  await Promise.all(processes.map((p) => p.kill()));
  processes = [];
  await bench?.close(passed);
  bench = undefined;
  passed = false;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function env(b: QueueBench): Record<string, string> {
  return cliEnv(b.sim, url, b.prefix, { LOG_LEVEL: 'info', LISTING_SYNC_PERMIT_TTL_MS: String(TTL_MS), ...CRASH_RECOVERY_ENV });
}

/** Starts `count` workers with `args` and waits until each said it started. */
async function workers(b: QueueBench, count: number, args: string[]): Promise<CliProcess[]> {
  const started = Array.from({ length: count }, () =>
    startCli(['worker', '--lock-duration-ms', '1500', '--stalled-interval-ms', '500', ...args], env(b)),
  );
  processes.push(...started);
  await Promise.all(started.map((p) => p.waitFor(/workers started/, 60_000)));
  return started;
}

/** Samples the simulator's requests in flight every 2 ms: [time, in flight]. */
function sampleInFlight(sim: RunningSimulator): { samples: Array<[number, number]>; stop(): void } {
  const samples: Array<[number, number]> = [];
  const timer = setInterval(() => samples.push([Date.now(), sim.state.inFlight()]), 2);
  return { samples, stop: () => clearInterval(timer) };
}

const mostBetween = (samples: ReadonlyArray<[number, number]>, from: number, to: number): number =>
  Math.max(0, ...samples.filter(([at]) => at >= from && at < to).map(([, n]) => n));

async function stopAll(list: CliProcess[]): Promise<void> {
  const codes = await Promise.all(list.map((p) => p.stop()));
  for (const { code } of codes) expect(code).toBe(0);
}

describe('worker processes under one request permit pool', () => {
  it('two processes under G work a run to its end, more than G/2 and never more than G in flight', async () => {
    const G = 8;
    const jobs = 800;
    bench = await openQueueBench(url, { chatbots: ['bot-pool'], faults: { latencyMs: 20 } }, 'permits-rate');
    const b = bench;

    const pool = await workers(b, 2, ['--concurrency', String(G), '--global-concurrency', String(G)]);
    await sleep(TTL_MS / 2); // past the new pool's grace, as for workers running as daemons
    const poolRun = await b.enqueue(await b.plan('bot-pool', feedOf('bot-pool', 0, jobs)));
    expect(await waitForRun(b.store, poolRun, { pollMs: 50 })).toMatchObject({ created: jobs, failed: 0 });
    expect(b.sim.state.listings('bot-pool')).toHaveLength(jobs);
    expect(b.sim.state.duplicateCreates('bot-pool')).toEqual([]);
    const pooledMost = b.sim.state.maxInFlight();
    await stopAll(pool);

    expect(pooledMost).toBeGreaterThan(G / 2);
    expect(pooledMost).toBeLessThanOrEqual(G);
    passed = true;
  }, 180_000);

  it("a SIGKILLed worker's permits stay counted until its lease expires, then come back to the survivor", async () => {
    const G = 4;
    bench = await openQueueBench(url, { chatbots: ['bot-kill'], faults: { latencyMs: 40 } }, 'permits-kill');
    const b = bench;
    const feed = feedOf('bot-kill', 0, 500);
    const [victim, survivor] = await workers(b, 2, ['--concurrency', String(G), '--global-concurrency', String(G)]);
    await sleep(TTL_MS / 2);
    const sampler = sampleInFlight(b.sim);
    const runId = await b.enqueue(await b.plan('bot-kill', feed));
    const end = Date.now() + 20_000;
    while (b.sim.state.listings('bot-kill').length < 60 && Date.now() < end) await sleep(10);
    await victim?.kill();
    const killedAt = Date.now();
    expect(await waitForRun(b.store, runId, { pollMs: 50 })).toMatchObject({ created: 500, failed: 0 });
    sampler.stop();
    expect(b.sim.state.duplicateCreates('bot-kill')).toEqual([]);
    expect(b.sim.state.maxInFlight()).toBeLessThanOrEqual(G);
    // The victim's lease lasts up to TTL after its last renewal: until then the survivor keeps its half.
    expect(mostBetween(sampler.samples, killedAt + 100, killedAt + TTL_MS - 300)).toBeLessThanOrEqual(G / 2);
    // Then the survivor has the whole pool.
    expect(mostBetween(sampler.samples, killedAt + TTL_MS + 500, Number.POSITIVE_INFINITY)).toBe(G);
    await stopAll([survivor as CliProcess]);
    passed = true;
  }, 120_000);

  it('sync --work beside a worker: both share G, the service never sees more', async () => {
    const G = 6;
    bench = await openQueueBench(url, { chatbots: ['bot-beside'], faults: { latencyMs: 20 } }, 'permits-beside');
    const b = bench;
    const [worker] = await workers(b, 1, ['--concurrency', String(G), '--global-concurrency', String(G)]);
    const feedPath = join(dir, 'beside.csv');
    await writeFeedCsv(feedPath, { listings: 400, seed: 7, profile: 'native' });
    const run = await runCli(
      [
        'sync',
        '--chatbot',
        'bot-beside',
        '--feed',
        feedPath,
        '--work',
        '--concurrency',
        String(G),
        '--global-concurrency',
        String(G),
        '--json',
      ],
      env(b),
      90_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<{ result: unknown }>(run).result).toMatchObject({ created: 400, failed: 0 });
    expect(b.sim.state.listings('bot-beside')).toHaveLength(400);
    expect(b.sim.state.duplicateCreates('bot-beside')).toEqual([]);
    expect(b.sim.state.maxInFlight()).toBeGreaterThan(1);
    expect(b.sim.state.maxInFlight()).toBeLessThanOrEqual(G);
    await stopAll([worker as CliProcess]);
    passed = true;
  }, 120_000);

  it("a queue already holding jobs, with an old BullMQ global concurrency of 1 on it: worked under the pool's G", async () => {
    const G = 4;
    bench = await openQueueBench(url, { chatbots: ['bot-before'], faults: { latencyMs: 20 } }, 'permits-before');
    const b = bench;
    await b.queues.writes.setGlobalConcurrency(1);
    const runId = await b.enqueue(await b.plan('bot-before', feedOf('bot-before', 0, 200)));
    await workers(b, 2, ['--concurrency', String(G), '--global-concurrency', String(G)]);
    expect(await waitForRun(b.store, runId, { pollMs: 50 })).toMatchObject({ created: 200, failed: 0 });
    expect(await b.queues.writes.getGlobalConcurrency()).toBeNull();
    expect(b.sim.state.maxInFlight()).toBeGreaterThan(1);
    expect(b.sim.state.maxInFlight()).toBeLessThanOrEqual(G);
    expect(b.sim.state.duplicateCreates('bot-before')).toEqual([]);
    passed = true;
  }, 120_000);
});
