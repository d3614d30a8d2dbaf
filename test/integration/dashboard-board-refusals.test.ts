/**
 * bull-board in the dashboard, over real queues and a running worker: its add (a delete on
 * listing-writes, a sync of /etc/passwd on sync-runs), update-data, schedule edits, empty and
 * obliterate are refused 403 however the path is spelled, and nothing reaches the queues; its retry
 * still works and the retried jobs complete (src/dashboard/board-refusals.ts).
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createStoreDashboardData } from '../../src/dashboard/read-model.js';
import { createMetrics } from '../../src/dashboard/metrics.js';
import { startDashboard, type RunningDashboard } from '../../src/dashboard/server.js';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { sampleListing } from '../../src/sim/sample-listings.js';
import { eventually, seedFailedRun } from '../helpers/dashboard.js';
import { feedOf, openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-board';
const TOKEN = 'tok-board-refusals-42';

let bench: QueueBench | undefined;
let board: Queues | undefined;
let dashboard: RunningDashboard | undefined;
let passed = false;

afterEach(async () => {
  await dashboard?.close();
  await board?.close();
  await bench?.close(passed);
  dashboard = undefined;
  board = undefined;
  bench = undefined;
  passed = false;
});

describe("bull-board's writes", () => {
  it('are refused 403 for add, update-data, schedule edits, empty and obliterate; retry still works', async () => {
    bench = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'board');
    const { runId, keys } = await seedFailedRun(bench, BOT, 2);
    // The dashboard's own queues, as the CLI opens them for it: they seal nothing.
    board = openQueues(bench.redis, bench.prefix, 'read-only');
    dashboard = await startDashboard({
      data: createStoreDashboardData(bench.store, board),
      queues: [board.writes, board.syncRuns, board.alerts],
      auth: { token: TOKEN },
      readOnly: false,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: bench.logger,
      port: 0,
      host: '127.0.0.1',
    });
    const { url } = dashboard;
    const call = (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${url}/queues/api/queues/${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, origin: url, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // The run records a final failure before BullMQ moves the job: wait for both.
    await eventually(async () => (await bench?.queues.writes.getFailedCount()) === 2);
    const [failedJob] = await bench.queues.writes.getJobs(['failed']);
    const jobNames = async (): Promise<string[]> =>
      (await bench?.queues.writes.getJobs(['wait', 'prioritized', 'delayed', 'active', 'failed', 'completed']))?.map((j) => j.name) ?? [];
    const namesBefore = await jobNames();
    const listingsBefore = bench.sim.state.listings(BOT);
    const jobId = failedJob?.id ?? '';
    const deleteBody = {
      name: 'delete-listings',
      data: { runId, chatbot: BOT, keyType: 'MLSNumber', deleteKeyType: 'MLSNumber', keys: [sampleListing(0).MLSNumber], ledgerKeys: [] },
      options: {},
    };
    const refused: Array<[string, string, unknown?]> = [
      ['POST', 'listing-writes/add', deleteBody],
      ['POST', 'LISTING-WRITES/Add/', deleteBody],
      ['POST', 'listing-writes/%61dd', deleteBody],
      ['POST', 'sync-runs/add', { name: 'sync-run', data: { chatbot: BOT, feed: { source: '/etc/passwd', profile: 'native' } } }],
      ['PATCH', `listing-writes/${jobId}/update-data`, { data: { force: true } }],
      ['PATCH', 'sync-runs/job-schedulers/nightly', { repeat: { pattern: '* * * * *' } }],
      ['PUT', 'sync-runs/job-schedulers/nightly/remove'],
      ['PUT', 'listing-writes/empty'],
      ['PUT', 'listing-writes/obliterate'],
    ];
    for (const [method, path, body] of refused) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { message: string }).message).toMatch(/is not allowed from the dashboard/);
    }
    expect(await jobNames()).toEqual(namesBefore);
    expect(namesBefore).not.toContain('delete-listings');
    expect(await bench.queues.syncRuns.getJobCounts()).toMatchObject({ waiting: 0, failed: 0, completed: 0, delayed: 0, prioritized: 0 });
    expect(bench.sim.state.listings(BOT)).toEqual(listingsBefore);
    expect((await bench.queues.writes.getJob(jobId))?.data).toEqual(failedJob?.data);

    // Reading and retry stay.
    expect((await call('GET', '')).status).toBe(200);
    bench.sim.state.setFaults({});
    expect((await call('PUT', 'listing-writes/retry/failed')).status).toBe(200);
    await eventually(async () => keys.every((key) => bench?.sim.state.listings(BOT).some((l) => l.MLSNumber === key) === true), 20_000);
    passed = true;
  });

  it('the health page names the service the waiting jobs are for', async () => {
    bench = await openQueueBench(redisUrl, { chatbots: [BOT] }, 'board-targets');
    const runId = await bench.enqueue(await bench.plan(BOT, feedOf(BOT, 0, 3)));
    board = openQueues(bench.redis, bench.prefix, 'read-only');
    dashboard = await startDashboard({
      data: createStoreDashboardData(bench.store, board, bench.prefix),
      queues: [board.writes, board.syncRuns, board.alerts],
      auth: { token: TOKEN },
      readOnly: false,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: bench.logger,
      port: 0,
      host: '127.0.0.1',
    });
    const res = await fetch(`${dashboard.url}/health`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('Waiting jobs by service');
    expect(body).toContain(
      `(run <span class="mono">${runId}</span>, …) are for <span class="mono">${bench.seal.target.url} (credentials ${bench.seal.target.credentials})</span>`,
    );
    passed = true;
  });
});
