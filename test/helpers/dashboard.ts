/**
 * Dashboard test data, two ways:
 * - `fakeDashboardData()`: in memory, for the HTTP surface and rendering. One run with hostile
 *   feed values, rejected rows and failed jobs; retryFailed marks the failed jobs as created (as
 *   a worker would after a successful retry) and counts the calls.
 * - `seedFailedRun(bench)`: the real thing. A run enqueued on real Redis whose creates the
 *   simulator answers with envelope Code 500 until every attempt is spent, so its jobs fail.
 */
import type { DashboardData, FailedJobView, KeyTouchView, RunDetail } from '../../src/dashboard/types.js';
import { waitForRun } from '../../src/sync/wait-for-run.js';
import { TEST_JOB_SETTINGS, enqueueAsSync, feedOf, type QueueBench } from './queue.js';

export const HOSTILE = '<script>alert("pwned")</script>';
export const RUN_ID = 'run-00test0001-abcd';

export interface FakeDashboardData extends DashboardData {
  retryCalls: string[];
  failed: FailedJobView[];
  run: RunDetail;
}

export function fakeDashboardData(): FakeDashboardData {
  const startedAt = Date.UTC(2026, 10, 21, 2, 0, 0);
  const run: RunDetail = {
    runId: RUN_ID,
    chatbot: 'bot-demo',
    startedAt,
    finishedAt: startedAt + 95_000,
    status: 'done',
    trigger: 'schedule',
    counts: { created: 3, updated: 1, deleted: 0, failed: 2, retried: 4, superseded: 0 },
    plan: { create: 5, update: 1, delete: 0, unchanged: 7 },
    guard: { ok: true, reasons: [], forced: false },
    jobs: { total: 6, finished: 6, failed: 2 },
    summary: {
      feed: { source: 'fixtures/feed.csv', profile: 'generic-csv', rows: 10, valid: 8, rejected: 2, note: HOSTILE },
      remote: { listings: 7, virtualCount: 7, complete: true },
    },
    rejected: [
      { line: 4, key: '11646057', field: 'ListPrice', value: 'abc', reason: 'not a number' },
      { line: 9, key: HOSTILE, field: 'Address', value: '=HYPERLINK("http://evil")', reason: `bad value ${HOSTILE}` },
    ],
  };
  const failed: FailedJobView[] = [
    {
      jobId: 'create.bot-demo.MLSNumber.A1.run-00test0001-abcd',
      chatbot: 'bot-demo',
      key: 'A1',
      kind: 'create',
      attempts: 5,
      code: 500,
      message: 'Internal error from service',
      address: '1 Main St',
      city: 'Springfield',
      target: 'http://127.0.0.1:9/api (credentials 0123456789ab)',
      elsewhere: false,
    },
    {
      jobId: 'update.bot-demo.MLSNumber.B2.run-00test0001-abcd',
      chatbot: 'bot-demo',
      key: 'B2',
      kind: 'update',
      attempts: 3,
      code: 'ENVELOPE_FAILURE',
      message: HOSTILE,
      address: '',
      city: '',
      target: '',
      elsewhere: false,
    },
  ];
  const touches: KeyTouchView[] = [
    { runId: RUN_ID, jobId: failed[0]?.jobId ?? '', chatbot: 'bot-demo', kind: 'create', state: 'failed', at: startedAt + 1000 },
  ];
  const data: FakeDashboardData = {
    run,
    failed,
    retryCalls: [],
    async listRuns(opts) {
      return [run].filter((r) => opts.chatbot === undefined || r.chatbot === opts.chatbot).slice(0, opts.limit);
    },
    async getRun(runId) {
      return runId === run.runId ? run : undefined;
    },
    async runPage(runId) {
      return runId === run.runId ? { run: data.run, failed: [...data.failed], requeued: { jobs: 0, listings: 0 }, targets: [] } : undefined;
    },
    async retryFailed(runId) {
      data.retryCalls.push(runId);
      const count = data.failed.length;
      run.counts = { ...run.counts, created: run.counts.created + count, failed: 0 };
      run.jobs = { ...run.jobs, failed: 0 };
      data.failed = [];
      return count;
    },
    async findKey(key) {
      return key === 'A1' ? touches : [];
    },
    async pingRedis() {
      return true;
    },
    async jobCounts() {
      return { 'listing-sync-listings': { waiting: 0, active: 1, failed: 2, completed: 9 } };
    },
  };
  return data;
}

/** A failed run made against the simulator: `keys` creates, each failed after 2 attempts. */
export interface FailedRun {
  runId: string;
  keys: string[];
}

/**
 * Enqueues a run of creates while the simulator fails every create (envelope Code 500, which is
 * retryable, so each job spends its attempts and then fails for good), starts workers and waits
 * for the run to finish. The caller clears the fault (`bench.sim.state.setFaults({})`) before
 * retrying. The run is recorded and enqueued as a sync does it (enqueueAsSync).
 */
export async function seedFailedRun(bench: QueueBench, chatbot: string, count = 2): Promise<FailedRun> {
  const feed = feedOf(chatbot, 0, count);
  const plan = await bench.plan(chatbot, feed);
  bench.sim.state.setFaults({ envelopeFailureRate: 1, endpoints: ['createListing'] });
  const runId = await enqueueAsSync(bench, plan, {
    feed: {
      source: 'fixtures/dashboard.csv',
      profile: 'generic-csv',
      rows: count + 1,
      rejected: [{ kind: 'rejected', line: 7, key: HOSTILE, field: 'ListPrice', value: '=1+1', reason: 'must be a number' }],
    },
    jobs: { ...TEST_JOB_SETTINGS, attempts: 2 },
  });
  await bench.work();
  const counts = await waitForRun(bench.store, runId, { pollMs: 50 });
  if (counts.failedJobs !== count) throw new Error(`expected ${count} failed jobs, got ${JSON.stringify(counts)}`);
  return { runId, keys: feed.map((listing) => listing.MLSNumber) };
}

/** Polls until `check` holds (or fails after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
