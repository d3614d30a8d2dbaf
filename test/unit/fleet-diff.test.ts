/** The fleet plan: what apply adds, changes and removes, and what it keeps without --prune. */
import { describe, expect, it } from 'vitest';
import { planFleet, type FleetSide } from '../../src/fleet/fleet-diff.js';
import type { Fleet } from '../../src/fleet/fleet-model.js';

const fleet = (chatbots: Fleet['chatbots'], alerts: Fleet['alerts'] = {}): Fleet => ({
  sources: { file: { feed: '/feeds/a.csv', schedule: { cron: '0 2 * * *' } } },
  chatbots,
  alerts,
});
const schedule = (chatbot: string, maxDeletes = '10%') => ({ cron: '0 2 * * *', request: { chatbot, maxDeletes } });

const installed: FleetSide = {
  fleet: fleet({ a: { source: 'file' }, old: { source: 'file' } }, { ops: { webhookEnv: 'OPS' } }),
  schedules: { 'fleet-a': schedule('a'), 'fleet-old': schedule('old'), nightly: schedule('hand-made') },
  alerts: { ops: { format: 'json', webhook: 'https://h.example/1' }, 'by-hand': { format: 'json' } },
};

describe('planFleet', () => {
  it('finds nothing to do when the installation matches the file', () => {
    const plan = planFleet(installed, installed, { prune: false });
    expect(plan.changes).toEqual([]);
    expect(plan.kept).toEqual([]);
    expect(plan.record).toEqual(installed.fleet);
  });

  it('adds, changes (naming the settings) and keeps what the file no longer names, touching nothing made by hand', () => {
    const wanted: FleetSide = {
      fleet: fleet({ a: { source: 'file', maxDeletes: '5%' }, b: { source: 'file' } }, {}),
      schedules: { 'fleet-a': schedule('a', '5%'), 'fleet-b': schedule('b') },
      alerts: {},
    };
    const plan = planFleet(installed, wanted, { prune: false });
    expect(plan.changes).toEqual([
      { kind: 'chatbot', name: 'a', action: 'change', fields: ['maxDeletes'] },
      { kind: 'chatbot', name: 'b', action: 'add' },
      { kind: 'schedule', name: 'fleet-a', action: 'change', fields: ['request.maxDeletes'] },
      { kind: 'schedule', name: 'fleet-b', action: 'add' },
    ]);
    expect(plan.kept).toEqual([
      { kind: 'chatbot', name: 'old', action: 'keep' },
      { kind: 'schedule', name: 'fleet-old', action: 'keep' },
      { kind: 'alert', name: 'ops', action: 'keep' },
    ]);
    // What is kept stays owned, so a later --prune still knows it.
    expect(Object.keys(plan.record.chatbots).sort()).toEqual(['a', 'b', 'old']);
    expect(Object.keys(plan.record.alerts)).toEqual(['ops']);

    const pruned = planFleet(installed, wanted, { prune: true });
    expect(pruned.kept).toEqual([]);
    expect(pruned.changes.filter((change) => change.action === 'remove')).toEqual([
      { kind: 'chatbot', name: 'old', action: 'remove' },
      { kind: 'schedule', name: 'fleet-old', action: 'remove' },
      { kind: 'alert', name: 'ops', action: 'remove' },
    ]);
    expect(Object.keys(pruned.record.chatbots).sort()).toEqual(['a', 'b']);
  });

  it('removes the schedule of a chatbot the file still names but no longer schedules, without --prune', () => {
    const wanted: FleetSide = { ...installed, schedules: { 'fleet-old': schedule('old'), nightly: schedule('hand-made') } };
    expect(planFleet(installed, wanted, { prune: false }).changes).toEqual([{ kind: 'schedule', name: 'fleet-a', action: 'remove' }]);
  });

  it('compares an alert webhook only when the file side knows it', () => {
    const unknownWebhook: FleetSide = { ...installed, alerts: { ops: { format: 'json' } } };
    expect(planFleet(installed, unknownWebhook, { prune: false }).changes).toEqual([]);
    const otherWebhook: FleetSide = { ...installed, alerts: { ops: { format: 'json', webhook: 'https://h.example/2' } } };
    expect(planFleet(installed, otherWebhook, { prune: false }).changes).toEqual([
      { kind: 'alert', name: 'ops', action: 'change', fields: ['webhook'] },
    ]);
  });
});
