/**
 * Workers as real processes (the built CLI): a SIGKILLed worker loses nothing and duplicates
 * nothing once another one picks its jobs up; two, three and eight processes never put more
 * requests in flight than the global concurrency (each holding a lease in the request permit
 * pool, given back on SIGTERM), and --rate holds across three; `jobs retry`
 * from the CLI re-runs failed jobs; SIGTERM shuts a worker down cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/keys.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { enqueueAsSync, feedContent, feedOf, openQueueBench, simContent, TEST_JOB_SETTINGS, type QueueBench } from '../helpers/queue.js';
import { CRASH_RECOVERY_ENV } from '../helpers/sim.js';

const url = inject('redisUrl');
const ROOT = resolve(import.meta.dirname, '../..');
const BIN = resolve(
  ROOT,
  (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['listing-sync'] ?? '',
);
const BOT = 'bot-proc';

let bench: QueueBench | undefined;
let children: ChildProcess[] = [];
let passed = false;

afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
  await bench?.close(passed);
  bench = undefined;
  passed = false;
});

function env(b: QueueBench): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    REDIS_URL: url,
    LISTING_SYNC_PREFIX: b.prefix,
    API_BASE_URL: b.sim.baseUrl,
    SITE_URL: b.sim.siteUrl,
    API_SECRET_KEY: b.sim.credentials.secretKey,
    API_SESSION_KEY: b.sim.credentials.sessionKey,
    PROJECT_AUTH_TOKEN: b.sim.credentials.projectAuthToken,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
    LOG_LEVEL: 'info',
    ...CRASH_RECOVERY_ENV,
  };
}

/** Starts `listing-sync worker` and resolves once it logged that its workers started. */
async function startWorker(
  b: QueueBench,
  args: string[],
  startMs = 15_000,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess & { output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'worker', '--lock-duration-ms', '1500', '--stalled-interval-ms', '500', ...args], {
    env: { ...env(b), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`worker did not start:\n${stderr}`)), startMs);
    child.stderr?.on('data', () => {
      if (stderr.includes('workers started')) {
        clearTimeout(timer);
        ok();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited ${code}:\n${stderr}`));
    });
  });
  return Object.assign(child, { output: () => stderr });
}

async function cli(b: QueueBench, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: env(b), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  return { code, stdout, stderr };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('worker processes', () => {
  it('a worker SIGKILLed mid-run, then another started, converges with no duplicates and nothing left waiting', async () => {
    bench = await openQueueBench(url, { chatbots: [BOT], faults: { latencyMs: 40 } }, 'kill');
    const feed = feedOf(BOT, 0, 150);
    const runId = await bench.enqueue(await bench.plan(BOT, feed));
    const first = await startWorker(bench, ['--concurrency', '8']);
    await until(() => bench!.sim.state.listings(BOT).length >= 30);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const createdBeforeKill = bench.sim.state.listings(BOT).length;
    expect(createdBeforeKill).toBeLessThan(150);

    await startWorker(bench, ['--concurrency', '8']);
    const counts = await waitForRun(bench.store, runId, { pollMs: 100 });
    expect(counts).toMatchObject({ created: 150, failed: 0, finishedJobs: 150, totalJobs: 150 });
    expect(bench.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
    expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
    expect(simContent(bench, BOT)).toEqual(feedContent(feed));
    const left = await bench.queues.writes.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
    expect(left).toEqual({ wait: 0, prioritized: 0, active: 0, delayed: 0, failed: 0 });
    passed = true;
  }, 60_000);

  it("LISTING_SYNC_ATTEMPTS=3 on a worker ends each failing job after 3 attempts, though the enqueuer's jobs allow 10", async () => {
    bench = await openQueueBench(url, { chatbots: [BOT], faults: { envelopeFailureRate: 1, endpoints: ['createListing'] } }, 'attempts');
    // Enqueued as a process whose own setting is 10 attempts would.
    const plan = await bench.plan(BOT, feedOf(BOT, 0, 25));
    const runId = await enqueueAsSync(bench, plan, { jobs: { ...TEST_JOB_SETTINGS, attempts: 10 } });
    await startWorker(bench, ['--concurrency', '4'], 15_000, { LISTING_SYNC_ATTEMPTS: '3' });
    expect(await waitForRun(bench.store, runId, { pollMs: 100 })).toMatchObject({ created: 0, failed: 25, finishedJobs: 25 });
    await until(async () => (await bench!.queues.writes.getJobCounts('failed')).failed === 25);
    const failed = await bench.queues.writes.getJobs(['failed']);
    expect(failed.map((job) => job.attemptsMade)).toEqual(failed.map(() => 3));
    expect(failed.every((job) => /ENVELOPE_FAILURE 500: Internal error, try again/.test(job.failedReason))).toBe(true);
    // The service saw at least 3 creates of each key (more only for a job the breaker put back unspent).
    const creates = new Map<string, number>();
    for (const call of bench.sim.state.calls().filter((c) => c.endpoint === 'createListing')) {
      const key = (call.body as { MLSNumber?: string }).MLSNumber ?? '';
      creates.set(key, (creates.get(key) ?? 0) + 1);
    }
    expect(creates.size).toBe(25);
    expect([...creates.values()].every((n) => n >= 3)).toBe(true);
    passed = true;
  }, 120_000);

  it('two worker processes never put more requests in flight than the global concurrency', async () => {
    bench = await openQueueBench(url, { chatbots: [BOT], faults: { latencyMs: 20 } }, 'global');
    const feed = feedOf(BOT, 0, 120);
    const runId = await bench.enqueue(await bench.plan(BOT, feed));
    const workers = await Promise.all([
      startWorker(bench, ['--concurrency', '8', '--global-concurrency', '3']),
      startWorker(bench, ['--concurrency', '8', '--global-concurrency', '3']),
    ]);
    expect(await waitForRun(bench.store, runId, { pollMs: 100 })).toMatchObject({ created: 120, failed: 0 });
    expect(bench.sim.state.maxInFlight()).toBeGreaterThan(1);
    expect(bench.sim.state.maxInFlight()).toBeLessThanOrEqual(3);

    // SIGTERM: both stop taking jobs, close, and exit 0.
    for (const worker of workers) worker.kill('SIGTERM');
    const codes = await Promise.all(
      workers.map((w) => new Promise<number | null>((r) => (w.exitCode !== null ? r(w.exitCode) : w.once('exit', r)))),
    );
    expect(codes).toEqual([0, 0]);
    expect(workers[0]?.output()).toContain('workers closed');
    passed = true;
  }, 60_000);

  /** `count` worker processes, each allowed more than `global` alone, all under --global-concurrency `global`. */
  async function sharedLimit(b: QueueBench, count: number, global: number, extra: string[] = []): Promise<void> {
    const args = ['--concurrency', String(global * 2), '--global-concurrency', String(global), ...extra];
    // Why started in turns of two: eight Node processes starting at once on a loaded 2-core machine
    // can take longer than a start-up timeout; a turn only waits for "workers started".
    for (let i = 0; i < count; i += 2)
      await Promise.all([startWorker(b, args, 60_000), ...(i + 1 < count ? [startWorker(b, args, 60_000)] : [])]);
  }

  for (const [count, global, jobs] of [
    [3, 5, 150],
    [8, 6, 240],
  ] as const) {
    it(`${count} worker processes sharing --global-concurrency ${global}: the service never sees more than ${global} in flight, and they converge`, async () => {
      bench = await openQueueBench(url, { chatbots: [BOT], faults: { latencyMs: 20 } }, `global${count}`);
      const feed = feedOf(BOT, 0, jobs);
      await sharedLimit(bench, count, global);
      const runId = await bench.enqueue(await bench.plan(BOT, feed));
      expect(await waitForRun(bench.store, runId, { pollMs: 100 })).toMatchObject({ created: jobs, failed: 0, finishedJobs: jobs });
      expect(bench.sim.state.maxInFlight()).toBeGreaterThan(1);
      expect(bench.sim.state.maxInFlight()).toBeLessThanOrEqual(global);
      expect(bench.sim.state.duplicateCreates(BOT)).toEqual([]);
      expect(simContent(bench, BOT)).toEqual(feedContent(feed));
      // Every process held a lease in the request permit pool and gave it back on SIGTERM.
      const pool = storeKeys(bench.prefix).requestPermits();
      expect((await bench.redis.hkeys(pool)).filter((field) => field.startsWith('h:'))).toHaveLength(count);
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))));
      expect(children.map((child) => child.exitCode)).toEqual(children.map(() => 0));
      expect(await bench.redis.hkeys(pool)).toEqual(['born']);
      passed = true;
    }, 180_000);
  }

  it('--rate holds across three worker processes: 40 creates at 10/s take at least 3 s, never 21 in one second', async () => {
    bench = await openQueueBench(url, { chatbots: [BOT] }, 'rate3');
    const feed = feedOf(BOT, 0, 40);
    await sharedLimit(bench, 3, 8, ['--rate', '10/s']);
    const runId = await bench.enqueue(await bench.plan(BOT, feed));
    expect(await waitForRun(bench.store, runId, { pollMs: 100 })).toMatchObject({ created: 40, failed: 0 });
    expect(bench.sim.state.calls().filter((call) => call.endpoint === 'createListing')).toHaveLength(40);
    // Why by the job's start (BullMQ's processedOn) and not by the request's arrival: the limiter
    // counts job starts, and on a loaded machine a request can reach the service late, after the
    // next window's starts; arrival would then judge the machine's speed, not the limit.
    await until(async () => (await bench!.queues.writes.getJobCounts('completed')).completed === 40);
    const times = (await bench.queues.writes.getJobs(['completed'])).map((job) => job.processedOn ?? 0).sort((a, b) => a - b);
    expect(times).toHaveLength(40);
    // BullMQ's limiter counts fixed windows of 1 s: 40 jobs need 4 windows, so the last starts ≥ 3 s
    // after the first (less a little: each start is stamped by its worker just before Redis counts it).
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(2_800);
    // Any 1 s (sliding) spans at most two windows: never more than twice the rate, whatever the alignment.
    for (const [i, at] of times.entries())
      expect(times.filter((t) => t >= at && t < at + 1000).length, `from start ${i}`).toBeLessThanOrEqual(20);
    passed = true;
  }, 120_000);

  it('jobs failed shows Code and Message; jobs retry from the CLI succeeds once the cause is fixed', async () => {
    bench = await openQueueBench(url, { chatbots: ['someone-else'] }, 'cliretry');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 2)));
    await startWorker(bench, ['--concurrency', '2']);
    expect(await waitForRun(bench.store, runId, { pollMs: 100 })).toMatchObject({ failed: 2, failedJobs: 2 });

    const failed = await cli(bench, ['jobs', 'failed', '--run', runId, '--json']);
    expect(failed.code).toBe(1);
    const rows = (JSON.parse(failed.stdout) as { failed: Array<{ key: string; code: string; message: string; attempts: number }> }).failed;
    expect(rows.map((r) => r.key).sort()).toEqual(['ML100000', 'ML100001']);
    expect(rows[0]).toMatchObject({ code: 'ENVELOPE_FAILURE 404', attempts: 1 });
    expect(rows[0]?.message).toContain(`chatbot ${BOT} not found`);

    bench.sim.state.addChatbot(BOT);
    const retried = await cli(bench, ['jobs', 'retry', '--run', runId]);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('re-queued 2 jobs');
    await until(async () => (await bench!.store.runs.runCounts(runId)).created === 2);
    const shown = await cli(bench, ['runs', 'show', runId, '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: runId, status: 'done', counts: { created: 2, failed: 0 } });
    const found = await cli(bench, ['jobs', 'find', 'ML100001', '--json']);
    expect(JSON.parse(found.stdout)).toMatchObject({ key: 'ML100001', jobs: [{ runId, chatbot: BOT, state: 'completed' }] });
    expect(bench.sim.state.listings(BOT)).toHaveLength(2);
    passed = true;
  }, 60_000);
});
