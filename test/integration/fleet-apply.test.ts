/**
 * The fleet use case against a real Redis: the installation read as the fleet sees it, a plan
 * executed (schedules, alerts, then the record), an alert's creation time kept across changes,
 * and a stored record this version cannot read refused with a line that says what to do.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { planFleet, type FleetSide } from '../../src/fleet/fleet-diff.js';
import type { Fleet } from '../../src/fleet/fleet-model.js';
import { openQueues, type Queues } from '../../src/queue/queues.js';
import { addSchedule, listSchedules } from '../../src/queue/schedules.js';
import { webhookSealOf } from '../../src/domain/health/webhook-seal.js';
import { AlertStore } from '../../src/store/alert-store.js';
import { FleetRecordStore } from '../../src/store/fleet-record-store.js';
import { appliedFleet, applyFleetPlan, currentFleetSide, type FleetDeps } from '../../src/sync/fleet-apply.js';
import { cleanPrefix, uniquePrefix } from '../helpers/redis.js';
import { TEST_SEAL } from '../helpers/job-seal.js';

const url = inject('redisUrl');
let cleanup: Array<() => Promise<void>> = [];
let prefix = '';

afterEach(async (ctx) => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  if ((ctx.task.result?.errors ?? []).length === 0) await cleanPrefix(url, prefix);
});

function open(): { deps: FleetDeps; redis: Redis; queues: Queues } {
  prefix = uniquePrefix('fleet-apply');
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  const queues = openQueues(redis, prefix, TEST_SEAL);
  cleanup.push(async () => {
    await queues.close();
    await redis.quit();
  });
  let clock = 1_000;
  const deps: FleetDeps = {
    syncRuns: queues.syncRuns,
    alerts: new AlertStore(redis, prefix, webhookSealOf(TEST_SEAL.key)),
    records: new FleetRecordStore(redis, prefix),
    now: () => (clock += 1_000),
  };
  return { deps, redis, queues };
}

const fleet = (where: boolean): Fleet => ({
  sources: { file: { feed: '/feeds/a.csv', schedule: { cron: '0 2 * * *' } } },
  chatbots: { a: { source: 'file', ...(where ? { where: { City: 'Evanston' } } : {}) } },
  alerts: { ops: { webhookEnv: 'OPS' } },
});
const request = { chatbot: 'a', feed: { source: '/feeds/a.csv', profile: 'native' }, mode: 'mirror' };
const alert = (format: 'json' | 'slack') => ({
  name: 'ops',
  webhook: 'https://hooks.example.com/1',
  format,
  on: ['failed' as const],
  chatbots: [],
  staleAfterMs: 3_600_000,
});

async function apply(deps: FleetDeps, wanted: FleetSide, alertFormat: 'json' | 'slack'): Promise<void> {
  const plan = planFleet(await currentFleetSide(deps), wanted, { prune: false });
  const { name: _name, ...settings } = alert(alertFormat);
  await applyFleetPlan(deps, plan, { schedules: wanted.schedules, alertConfigs: { ops: { name: 'ops', ...settings } } });
}

describe('fleet apply against Redis', () => {
  it('makes the schedules and alerts, stores the fleet, keeps an alert creation time, and drops the schedule of a chatbot that got a where', async () => {
    const { deps } = open();
    const { name: _n, ...jsonAlert } = alert('json');
    const first: FleetSide = {
      fleet: fleet(false),
      schedules: { 'fleet-a': { cron: '0 2 * * *', request } },
      alerts: { ops: { name: 'ops', ...jsonAlert } },
    };
    await apply(deps, first, 'json');
    expect(await listSchedules(deps.syncRuns)).toMatchObject([{ name: 'fleet-a', cron: '0 2 * * *', request }]);
    const created = (await deps.alerts.getConfig('ops'))?.createdAt;
    expect(created).toBeGreaterThan(0);
    expect(await appliedFleet(deps)).toEqual({ fleet: fleet(false), applied: true });
    expect(planFleet(await currentFleetSide(deps), first, { prune: false }).changes).toEqual([]);

    const { name: _m, ...slackAlert } = alert('slack');
    const second: FleetSide = { fleet: fleet(true), schedules: {}, alerts: { ops: { name: 'ops', ...slackAlert } } };
    expect(planFleet(await currentFleetSide(deps), second, { prune: false }).changes).toEqual([
      { kind: 'chatbot', name: 'a', action: 'change', fields: ['where'] },
      { kind: 'schedule', name: 'fleet-a', action: 'remove' },
      { kind: 'alert', name: 'ops', action: 'change', fields: ['format'] },
    ]);
    await apply(deps, second, 'slack');
    expect(await listSchedules(deps.syncRuns)).toEqual([]);
    expect(await deps.alerts.getConfig('ops')).toMatchObject({ format: 'slack', createdAt: created });
    expect(planFleet(await currentFleetSide(deps), second, { prune: false }).changes).toEqual([]);

    // The file drops its alert: kept without --prune, removed with it (an alert added by hand stays).
    await deps.alerts.saveConfig({ ...alert('json'), name: 'by-hand', createdAt: 1 });
    const third: FleetSide = { fleet: { ...fleet(true), alerts: {} }, schedules: {}, alerts: {} };
    expect(planFleet(await currentFleetSide(deps), third, { prune: false }).kept).toEqual([{ kind: 'alert', name: 'ops', action: 'keep' }]);
    const pruned = planFleet(await currentFleetSide(deps), third, { prune: true });
    expect(pruned.changes).toEqual([{ kind: 'alert', name: 'ops', action: 'remove' }]);
    await applyFleetPlan(deps, pruned, { schedules: {}, alertConfigs: {} });
    expect((await deps.alerts.listConfigs()).map((config) => config.name)).toEqual(['by-hand']);
    expect(await appliedFleet(deps)).toEqual({ fleet: third.fleet, applied: true });
  });

  it('leaves a schedule made by hand alone, and refuses a stored fleet this version cannot read', async () => {
    const { deps, redis } = open();
    await addSchedule(deps.syncRuns, { name: 'nightly', cron: '0 3 * * *', request });
    const side = await currentFleetSide(deps);
    expect(planFleet(side, { fleet: fleet(false), schedules: {}, alerts: {} }, { prune: true }).changes).toEqual([
      { kind: 'source', name: 'file', action: 'add' },
      { kind: 'chatbot', name: 'a', action: 'add' },
    ]);
    await redis.set(`${prefix}:ls:fleet`, JSON.stringify({ chatbots: { a: { source: 'gone' } } }));
    await expect(appliedFleet(deps)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/chatbots\.a\.source: unknown source 'gone'.*apply the fleet file again$/),
    });
  });
});
