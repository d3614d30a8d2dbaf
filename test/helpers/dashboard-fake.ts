/**
 * An in-memory DashboardData for tests of the dashboard's HTTP surface and rendering. It holds
 * one run with hostile feed values, rejected rows and failed jobs; retryFailed marks the failed
 * jobs as created (as a worker would after a successful retry) and counts the calls.
 */
import type { DashboardData, FailedJobView, KeyTouchView, RunDetail } from '../../src/dashboard/types.js';

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
    { jobId: 'create.bot-demo.MLSNumber.A1.run-00test0001-abcd', chatbot: 'bot-demo', key: 'A1', kind: 'create', attempts: 5, code: 500, message: 'Internal error from service' },
    { jobId: 'update.bot-demo.MLSNumber.B2.run-00test0001-abcd', chatbot: 'bot-demo', key: 'B2', kind: 'update', attempts: 3, code: 'ENVELOPE_FAILURE', message: HOSTILE },
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
    async failedJobs(runId) {
      return runId === run.runId ? [...data.failed] : [];
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
