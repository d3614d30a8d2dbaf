/**
 * Evaluating a chatbot's health over real Redis: several evaluators at once announce a change
 * once (one job, one stored state); a replicating run stopped by its feed budget (recorded on its
 * summary the way run-sync does it) makes the chatbot `budget`; a removed configuration's job
 * sends nothing.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { AlertMessage } from '../../src/domain/health/alert-body.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { addAlertJob } from '../../src/queue/alert-jobs.js';
import { DEFAULT_ALERT_JOBS } from '../../jobs/deliver-alert.js';
import { webhookSealOf } from '../../src/domain/health/webhook-seal.js';
import { AlertStore, alertField, HEALTH_FIELD } from '../../src/store/alert-store.js';
import type { SyncSummary } from '../../src/store/run-summary.js';
import { evaluateChatbot, type HealthDeps } from '../../src/sync/health/evaluate.js';
import type { SyncOutcome } from '../../src/sync/summary.js';
import { syncStores } from '../../src/sync/sync-stores.js';
import { deliverAlert } from '../../jobs/deliver-alert.js';
import { openQueueBench, type QueueBench } from '../helpers/queue.js';

const redisUrl = inject('redisUrl');
const BOT = 'bot-health';
let bench: QueueBench | undefined;
let passed = false;

afterEach(async () => {
  await bench?.close(passed);
  bench = undefined;
  passed = false;
});

function summary(runId: string, startedAt: number, ok: boolean): SyncSummary {
  return {
    runId,
    chatbot: BOT,
    dryRun: false,
    trigger: 'schedule',
    startedAt: new Date(startedAt).toISOString(),
    feed: { source: 'feed.csv', profile: 'native', rows: 3, valid: 3, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} },
    remote: { listings: 3, virtualCount: 3, complete: true, incompleteReasons: [], duplicates: 0, unkeyed: 0 },
    plan: { create: 0, update: 0, delete: 0, unchanged: 3, held: 0 },
    guard: { ok, reasons: ok ? [] : ['would delete too much: pass --force'], forced: false },
    ...(ok ? {} : { finishedAt: new Date(startedAt + 1000).toISOString() }),
  };
}

/** Records a run the way a sync does (saveRun), then ends it as the queue would. */
async function recordRun(b: QueueBench, runId: string, startedAt: number, status: 'done' | 'refused'): Promise<SyncSummary> {
  const s = summary(runId, startedAt, status !== 'refused');
  const outcome: SyncOutcome = {
    summary: s,
    plan: {
      chatbot: BOT,
      keyType: 'MLSNumber',
      mode: 'mirror',
      deleteScope: 'managed',
      creates: [],
      updates: [],
      deletes: [],
      unchanged: 3,
    },
    rejected: [],
    remoteDuplicates: [],
    remoteUnkeyed: [],
  };
  await syncStores(b.store).saveRun(outcome);
  if (status === 'done') await b.store.runs.updateRun(runId, { status: 'done', finishedAt: startedAt + 1000 });
  return s;
}

function depsOf(b: QueueBench, alerts: AlertStore): HealthDeps {
  return {
    runs: b.store.runs,
    alerts,
    addAlert: async (jobId, alert, message) => void (await addAlertJob(b.queues.alerts, jobId, { alert, message }, DEFAULT_ALERT_JOBS)),
    now: () => Date.now(),
    logger: silentLogger(),
  };
}

describe('health evaluation', () => {
  it('announces a change once however many evaluate at once, and knows a budget halt', async () => {
    bench = await openQueueBench(redisUrl, {}, 'health-eval');
    const alerts = new AlertStore(bench.redis, bench.prefix, webhookSealOf(bench.seal.key));
    await alerts.saveConfig({
      name: 'ops',
      webhook: 'https://hooks.example.com/x',
      format: 'json',
      on: ['refused', 'failed', 'recovered', 'skipped', 'stale', 'budget'],
      chatbots: [],
      staleAfterMs: 3_600_000,
      createdAt: 0,
    });
    const deps = depsOf(bench, alerts);
    const now = Date.now();
    await recordRun(bench, 'run-0000000001-aa', now - 60_000, 'done');
    expect(await evaluateChatbot(deps, BOT)).toEqual([]);
    expect((await alerts.states(BOT)).get(alertField('ops'))?.state?.status).toBe('healthy');

    await recordRun(bench, 'run-0000000002-bb', now - 30_000, 'refused');
    const added = await Promise.all([evaluateChatbot(deps, BOT), evaluateChatbot(deps, BOT), evaluateChatbot(deps, BOT)]);
    const ids = new Set(added.flat());
    expect(ids.size).toBe(1);
    expect(await bench.queues.alerts.getJobCountByTypes('waiting', 'delayed', 'prioritized')).toBe(1);
    const states = await alerts.states(BOT);
    expect(states.get(alertField('ops'))?.state).toMatchObject({ status: 'refused', runId: 'run-0000000002-bb' });
    expect(states.get(HEALTH_FIELD)?.state?.status).toBe('refused');
    expect(await evaluateChatbot(deps, BOT)).toEqual([]);

    // A replicating run that ran out of budget: its summary carries the pull's status (run-sync.ts).
    const halted = await recordRun(bench, 'run-0000000003-cc', now - 10_000, 'done');
    await syncStores(bench.store).recordReplication?.(halted, {
      status: 'budget-exhausted',
      recordsPulled: 10,
      requests: 3,
      bytes: 100,
      halted: 'feed request budget of 3 requests/h used up',
    });
    const budget = await evaluateChatbot(deps, BOT);
    expect(budget).toHaveLength(1);
    const job = await bench.queues.alerts.getJob(budget[0] ?? '');
    const message = (job?.data as { message: AlertMessage }).message;
    expect(message).toMatchObject({
      status: 'budget',
      previousStatus: 'refused',
      runId: 'run-0000000003-cc',
      reasons: ['feed request budget of 3 requests/h used up'],
    });

    // A configuration removed before its job ran: nothing is posted.
    await alerts.removeConfig('ops');
    const posted: unknown[] = [];
    const result = await deliverAlert(
      { alert: 'ops', message },
      { attempt: 1 },
      {
        alerts,
        post: (_url, body) => {
          posted.push(body);
          return Promise.resolve({ status: 200 });
        },
        timeoutMs: 1000,
        now: () => 0,
      },
    );
    expect(result).toBe('no-config');
    expect(posted).toEqual([]);
    passed = true;
  });
});
