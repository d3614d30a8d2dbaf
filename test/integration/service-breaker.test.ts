/**
 * The service breaker against a real Redis and the simulator over HTTP (src/queue/service-breaker.ts
 * over src/store/service-breaker.ts): two breakers on one Redis stand for two processes. It opens
 * after N failures in a row counted across both, an answer in between starts the count again, one
 * process probes at a time, and the first answer closes it for both; each logs one line per change.
 * With workers, jobs in flight when the service goes down come back without using an attempt.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/client-contract.js';
import { DEFAULT_RETRY_TABLE } from '../../src/api/retry-policy.js';
import { createLogger } from '../../src/runtime/logger.js';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { startServiceBreaker, type ServiceBreaker } from '../../src/queue/service-breaker.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { feedOf, queueBenchPerTest, TEST_JOB_SETTINGS, enqueueAsSync } from '../helpers/queue.js';
import { startTestSim } from '../helpers/sim.js';
import { storePerTest } from '../helpers/store-per-test.js';
import { TEST_SEAL } from '../helpers/job-seal.js';

const BOT = 'bot-breaker';
const OPEN_AFTER = 4;

const t = storePerTest('breaker');
const open: Array<{ close(): Promise<void> }> = [];
/** Redis failures the breakers reported: none is expected. */
const errors: unknown[] = [];

afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
  expect(errors).toEqual([]);
  errors.length = 0;
});

/** A logger whose lines a test reads. */
function captured(): { logger: ReturnType<typeof createLogger>; lines: () => string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return {
    logger: createLogger({ level: 'info', destination }),
    lines: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
  };
}

interface Process {
  breaker: ServiceBreaker;
  lines: () => string[];
  probes: () => number;
}

async function setup(): Promise<{
  sim: RunningSimulator;
  api: ApiClient;
  queues: Queues;
  start(probe?: (chatbot: string) => Promise<unknown>): Process;
}> {
  const sim = await startTestSim({ chatbots: [BOT] });
  open.push(sim);
  const api = createApiClient({ baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: sim.credentials });
  open.push(api);
  const queues = openQueues(t.redis, t.prefix, TEST_SEAL);
  open.push(queues);
  return {
    sim,
    api,
    queues,
    start(probe) {
      const { logger, lines } = captured();
      let probes = 0;
      const breaker = startServiceBreaker({
        store: t.store.breaker,
        queue: queues.writes,
        logger,
        retryTable: DEFAULT_RETRY_TABLE,
        probe: (chatbot) => {
          probes += 1;
          return probe ? probe(chatbot) : api.listListings({ SerialNumber: chatbot, PageNumber: 1, PageSize: 1 });
        },
        probeLeaseMs: 60_000,
        onError: (err) => errors.push(err),
        // The ticks are the test's to call: no timer decides anything here.
        tickMs: 3_600_000,
        openAfter: OPEN_AFTER,
        probeFirstMs: 1,
        probeMaxMs: 1,
      });
      open.push(breaker);
      return { breaker, lines, probes: () => probes };
    },
  };
}

const read = (api: ApiClient) => () => api.listListings({ SerialNumber: BOT, PageNumber: 1, PageSize: 1 });

/** Runs one call through `process`'s breaker and says how it ended. */
async function call(process: Process, api: ApiClient): Promise<string> {
  try {
    await process.breaker.run(read(api), BOT);
    return 'ok';
  } catch (thrown) {
    return (thrown as { code?: string }).code ?? 'error';
  }
}

describe('the service breaker, two processes on one Redis', () => {
  it('opens after N failures in a row across both, and an answer in between starts the count again', async () => {
    const { sim, api, start } = await setup();
    const [a, b] = [start(), start()];
    sim.state.setFaults({ outage: true });
    expect([await call(a, api), await call(b, api), await call(a, api)]).toEqual(['NETWORK', 'NETWORK', 'NETWORK']);
    sim.state.setFaults({});
    expect(await call(b, api)).toBe('ok');
    // The answer reset the streak: three more failures are not yet four in a row.
    sim.state.setFaults({ outage: true });
    const again = [await call(b, api), await call(a, api), await call(b, api)];
    expect(again, JSON.stringify(await t.store.breaker.read())).toEqual(['NETWORK', 'NETWORK', 'NETWORK']);
    expect(a.breaker.isOpen() || b.breaker.isOpen()).toBe(false);
    expect(await call(a, api)).toBe('NETWORK');
    expect(a.breaker.isOpen()).toBe(true);
    expect((await t.store.breaker.read()).open).toBe(true);

    // The other process learns it at its next look, and from then on refuses calls unsent.
    await b.breaker.tick();
    expect(b.breaker.isOpen()).toBe(true);
    const resetsBefore = sim.state.outageResets();
    expect(await call(b, api)).toBe('SERVICE_DOWN');
    expect(await call(a, api)).toBe('SERVICE_DOWN');
    expect(sim.state.outageResets()).toBe(resetsBefore);
    t.pass();
  });

  it('one process probes at a time, and the first answer closes it for both, with one line per change in each', async () => {
    const { sim, api, start } = await setup();
    let release: (() => void) | undefined;
    // Process a's probe is held until the test lets it answer: meanwhile b must not probe.
    const a = start(async (chatbot) => {
      await new Promise<void>((resolve) => (release = resolve));
      return await api.listListings({ SerialNumber: chatbot, PageNumber: 1, PageSize: 1 });
    });
    const b = start();
    sim.state.setFaults({ outage: true });
    for (let i = 0; i < OPEN_AFTER; i += 1) await call(i % 2 === 0 ? b : a, api);
    await b.breaker.tick();
    expect(a.breaker.isOpen() && b.breaker.isOpen()).toBe(true);

    // b probed (and failed: the service is still down); now a takes the probe and holds it.
    const { probing } = await holdProbe(a, () => release !== undefined);
    const bProbes = b.probes();
    for (let i = 0; i < 5; i += 1) await b.breaker.tick();
    expect(b.probes()).toBe(bProbes);
    expect(a.probes()).toBe(1);

    sim.state.setFaults({});
    release?.();
    await probing;
    expect(a.breaker.isOpen()).toBe(false);
    await b.breaker.tick();
    expect(b.breaker.isOpen()).toBe(false);
    expect(await call(b, api)).toBe('ok');
    for (const process of [a, b]) {
      const lines = process.lines();
      expect(lines, lines.join('\n')).toHaveLength(2);
      expect(lines[0]).toMatch(/^the service is down since \d{4}-.*\(NETWORK.*\): work is paused without using attempts/);
      expect(lines[1]).toMatch(/^the service answers again after \d+\.\d s: work resumes$/);
    }
    t.pass();
  });

  it('a probe the service refuses (it answered) closes it too; a probe that cannot connect keeps it open', async () => {
    const { sim, api, start } = await setup();
    const a = start();
    sim.state.setFaults({ outage: true });
    for (let i = 0; i < OPEN_AFTER; i += 1) await call(a, api);
    expect(a.breaker.isOpen()).toBe(true);
    await waitFor(async () => {
      await a.breaker.tick();
      return a.probes() > 0;
    });
    expect(a.breaker.isOpen()).toBe(true);
    sim.state.setFaults({ http503Rate: 0, envelopeFailureRate: 0, rateLimitRate: 1 });
    await waitFor(async () => {
      await a.breaker.tick();
      return !a.breaker.isOpen();
    });
    t.pass();
  });
});

const bench = queueBenchPerTest();

describe('jobs in flight when the service goes down', () => {
  it('come back without using an attempt, and the run converges once it answers again', async () => {
    const b = await bench({ chatbots: [BOT], faults: { latencyMs: 20 } }, 'breaker-jobs');
    const feed = feedOf(BOT, 0, 60);
    const plan = await b.plan(BOT, feed);
    // Two attempts a job: without the breaker a few seconds of outage fail every job for good.
    const runId = await enqueueAsSync(b, plan, { jobs: { ...TEST_JOB_SETTINGS, attempts: 2 } });
    b.sim.state.setFaults({ latencyMs: 20, outage: true });
    const workers = await b.work({ breaker: { openAfter: OPEN_AFTER, probeFirstMs: 200, probeMaxMs: 400, tickMs: 50 } });
    await waitFor(async () => (await b.store.breaker.read()).open);
    // The outage goes on for several probes: the jobs wait in the queue meanwhile.
    await waitFor(() => b.sim.state.outageResets() >= OPEN_AFTER + 3);
    b.sim.state.setFaults({ latencyMs: 20 });
    const counts = await waitForRun(b.store, runId, { pollMs: 50 });
    expect(counts).toMatchObject({ created: 60, failed: 0 });
    expect(b.sim.state.duplicateCreates()).toEqual([]);
    expect(b.sim.state.listings(BOT)).toHaveLength(60);
    // Only failures counted before it opened used an attempt: fewer than OPEN_AFTER in all
    // (BullMQ counts the successful attempt too: one per job).
    await waitFor(async () => (await b.queues.writes.getJobCounts('completed')).completed === 60);
    const jobs = await b.queues.writes.getJobs(['completed']);
    const failedAttempts = jobs.reduce((sum, job) => sum + job.attemptsMade - 1, 0);
    expect(failedAttempts).toBeLessThan(OPEN_AFTER);
    expect(workers.writes.isRunning()).toBe(true);
  });
});

/** Ticks `process` until its probe is under way (`probing()`), the probe's due time being Redis's; returns that tick. */
async function holdProbe(process: Process, probing: () => boolean): Promise<{ probing: Promise<void> }> {
  let tick = process.breaker.tick();
  await waitFor(async () => {
    tick = process.breaker.tick();
    await Promise.race([tick, new Promise((resolve) => setTimeout(resolve, 20))]);
    return probing();
  });
  return { probing: tick };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
