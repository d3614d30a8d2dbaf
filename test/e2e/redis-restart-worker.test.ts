/**
 * `listing-sync worker` (the built CLI as a process) through Redis outages, on a redis-server of
 * the test's own (AOF everysec): shut down cleanly and restarted mid-run, SIGKILLed and restarted
 * mid-run, and down when the worker starts; two workers sharing --global-concurrency (the request
 * permit pool) through a restart. Judged by the simulator: the chatbot ends equal to the
 * feed with zero duplicate creates; and by what the user sees: no stack trace, a few clear lines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { linesSaying, PROMPT_EXIT_MS, stackTraceLines, startCli, type CliProcess } from '../helpers/cli-process.js';
import { feedContent, feedOf, openQueueBench, simContent, type QueueBench } from '../helpers/queue.js';
import { hasRedisServer, startRedisProcess, type RedisProcess } from '../helpers/redis-process.js';
import { CRASH_RECOVERY_ENV, simEnv } from '../helpers/sim.js';

const BOT = 'bot-outage';
const OUTAGE_LINE = /is not answering/;

let redis: RedisProcess | undefined;
let bench: QueueBench | undefined;
let worker: CliProcess | undefined;
let others: CliProcess[] = [];

afterEach(async (ctx) => {
  await worker?.kill();
  worker = undefined;
  await Promise.all(others.map((other) => other.kill()));
  others = [];
  await bench?.close((ctx.task.result?.errors ?? []).length === 0);
  bench = undefined;
  await redis?.close();
  redis = undefined;
});

/** A bench on the test's own Redis; its own connections wait through the restarts quietly. */
async function openBench(label: string, latencyMs: number): Promise<QueueBench> {
  redis = await startRedisProcess();
  const opened = await openQueueBench(redis.url, { chatbots: [BOT], faults: { latencyMs } }, label);
  opened.redis.on('error', () => undefined);
  for (const queue of [opened.queues.writes, opened.queues.syncRuns, opened.queues.alerts]) queue.on('error', () => undefined);
  return opened;
}

function startWorker(b: QueueBench, url: string, extra: readonly string[] = []): CliProcess {
  const env = {
    ...simEnv(b.sim),
    REDIS_URL: url,
    LISTING_SYNC_PREFIX: b.prefix,
    LISTING_SYNC_BACKOFF_MS: '5',
    LISTING_SYNC_BACKOFF_MAX_MS: '50',
    LOG_LEVEL: 'info',
    // A worker stopped while Redis was away could not release its claims: a later one waits out the send window.
    ...CRASH_RECOVERY_ENV,
  };
  return startCli(['worker', '--concurrency', '4', '--lock-duration-ms', '1500', '--stalled-interval-ms', '500', ...extra], env);
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The run converged: every job done, the chatbot equals the feed, no create of a key it already held. */
async function expectConverged(b: QueueBench, runId: string, feed: ReturnType<typeof feedOf>): Promise<void> {
  const counts = await waitForRun(b.store, runId, { pollMs: 100 });
  expect(counts).toMatchObject({ created: feed.length, failed: 0, finishedJobs: feed.length, totalJobs: feed.length });
  expect(b.sim.state.duplicateCreates(BOT)).toEqual([]);
  expect(b.sim.state.duplicates(BOT, 'MLSNumber')).toEqual([]);
  expect(simContent(b, BOT)).toEqual(feedContent(feed));
}

/** What the worker printed: no stack trace, the outage said once or twice, nothing per failed attempt. */
function expectQuietOutage(stderr: string): void {
  expect(stackTraceLines(stderr), stderr).toEqual([]);
  expect(stderr).not.toMatch(/Unhandled error event|ECONNREFUSED\s*\n\s+at /);
  const outage = linesSaying(stderr, OUTAGE_LINE);
  expect(outage.length, stderr).toBeGreaterThanOrEqual(1);
  expect(outage.length, stderr).toBeLessThanOrEqual(2);
  expect(linesSaying(stderr, /answers again/)).toHaveLength(1);
  // Everything else it said: started, at most one line about locks lost in the outage, shutdown.
  expect(linesSaying(stderr, /./).length, stderr).toBeLessThanOrEqual(8);
}

const HAS_REDIS_SERVER = hasRedisServer();

describe.skipIf(!HAS_REDIS_SERVER)(`worker through a Redis restart${HAS_REDIS_SERVER ? '' : ' (skipped: no redis-server on PATH)'}`, () => {
  for (const how of ['shutdown', 'kill'] as const) {
    it(`Redis ${how === 'shutdown' ? 'shut down cleanly' : 'SIGKILLed'} and restarted mid-run: the worker reconnects and the run converges without duplicates`, async () => {
      bench = await openBench(`restart-${how}`, 40);
      const b = bench;
      const server = redis as RedisProcess;
      const feed = feedOf(BOT, 0, 120);
      const runId = await b.enqueue(await b.plan(BOT, feed));
      worker = startWorker(b, server.url);
      await until(() => b.sim.state.listings(BOT).length >= 25);
      await (how === 'shutdown' ? server.shutdown() : server.kill());
      await new Promise((resolve) => setTimeout(resolve, 1500)); // down long enough for jobs to lose their locks
      expect(b.sim.state.listings(BOT).length).toBeLessThan(feed.length);
      await server.start();

      await expectConverged(b, runId, feed);
      const { code, ms } = await worker.stop();
      expect(code).toBe(0);
      expect(ms).toBeLessThan(PROMPT_EXIT_MS);
      expectQuietOutage(worker.stderr());
    }, 180_000);
  }

  it('two workers sharing --global-concurrency 3 through a Redis SIGKILL and restart: never more than 3 in flight, the run converges', async () => {
    bench = await openBench('restart-permits', 30);
    const b = bench;
    const server = redis as RedisProcess;
    const feed = feedOf(BOT, 0, 200);
    const limit = ['--global-concurrency', '3'];
    worker = startWorker(b, server.url, limit);
    others = [startWorker(b, server.url, limit)];
    await Promise.all([worker, ...others].map((w) => w.waitFor(/workers started/)));
    const runId = await b.enqueue(await b.plan(BOT, feed));
    await until(() => b.sim.state.listings(BOT).length >= 40);
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await server.start();

    await expectConverged(b, runId, feed);
    expect(b.sim.state.maxInFlight()).toBeGreaterThan(1);
    expect(b.sim.state.maxInFlight()).toBeLessThanOrEqual(3);
    for (const w of [worker, ...others]) {
      expect((await w.stop()).code).toBe(0);
      expect(stackTraceLines(w.stderr()), w.stderr()).toEqual([]);
    }
  }, 180_000);

  it('SIGTERM while Redis is down mid-run: exits promptly; a worker started later finishes the run without duplicates', async () => {
    bench = await openBench('stop-while-down', 40);
    const b = bench;
    const server = redis as RedisProcess;
    const feed = feedOf(BOT, 0, 80);
    const runId = await b.enqueue(await b.plan(BOT, feed));
    worker = startWorker(b, server.url);
    await until(() => b.sim.state.listings(BOT).length >= 15);
    await server.shutdown();
    await worker.waitFor(OUTAGE_LINE);
    const { code, ms } = await worker.stop();
    expect(code).toBe(0);
    // Within the forced-exit timer, not by it. Not instant: BullMQ's watchdog on a blocking fetch
    // queued while Redis is away (drainDelay 5 s + 1 s) holds the process until it fires.
    expect(ms).toBeLessThan(PROMPT_EXIT_MS);
    expect(worker.stderr()).not.toContain('forcing exit');
    expect(stackTraceLines(worker.stderr()), worker.stderr()).toEqual([]);
    expect(linesSaying(worker.stderr(), /shutting down while Redis is not answering/)).toHaveLength(1);

    await server.start();
    worker = startWorker(b, server.url);
    await expectConverged(b, runId, feed);
    expect((await worker.stop()).code).toBe(0);
  }, 180_000);

  it('started while Redis is down: one clear JSON line per retry interval, exits promptly on SIGTERM', async () => {
    bench = await openBench('down-at-start', 0);
    const server = redis as RedisProcess;
    await server.shutdown();
    worker = startWorker(bench, server.url);
    await worker.waitFor(OUTAGE_LINE);
    await new Promise((resolve) => setTimeout(resolve, 7000)); // past the 5 s reporting interval
    const { code, ms } = await worker.stop();
    expect(code).toBe(0);
    expect(ms).toBeLessThan(PROMPT_EXIT_MS);
    const stderr = worker.stderr();
    expect(stackTraceLines(stderr), stderr).toEqual([]);
    const outage = linesSaying(stderr, OUTAGE_LINE);
    expect(outage.length, stderr).toBeGreaterThanOrEqual(2);
    expect(outage.length, stderr).toBeLessThanOrEqual(3);
    // JSON (no TTY here), naming where Redis is and why, without the URL's credentials.
    expect(outage[0]).toMatchObject({ level: 40, redis: `Redis at 127.0.0.1:${server.port}`, reason: 'ECONNREFUSED' });
    expect(linesSaying(stderr, /stopped before Redis answered/)).toHaveLength(1);
    expect(linesSaying(stderr, /workers started/)).toHaveLength(0);
    await server.start(); // for the bench's cleanup
  }, 90_000);

  it('started while Redis is down: starts working once Redis comes up', async () => {
    bench = await openBench('up-later', 10);
    const b = bench;
    const server = redis as RedisProcess;
    const feed = feedOf(BOT, 0, 30);
    const runId = await b.enqueue(await b.plan(BOT, feed));
    await server.shutdown();
    worker = startWorker(b, server.url);
    await worker.waitFor(OUTAGE_LINE);
    expect(b.sim.state.listings(BOT)).toHaveLength(0);
    await server.start();
    await worker.waitFor(/workers started/);
    await expectConverged(b, runId, feed);
    expect((await worker.stop()).code).toBe(0);
    expect(stackTraceLines(worker.stderr())).toEqual([]);
  }, 90_000);
});
