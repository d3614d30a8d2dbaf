/**
 * `fleet diff|apply|show` as a use case: read the installation as the fleet sees it (its record,
 * the schedules, the alerts), plan against the file's target (src/fleet/fleet-diff.ts), and
 * execute the plan. Listings are never touched: pruning removes configuration and schedules only.
 */
import type { FleetPlan, FleetSide, ScheduleSpec } from '../fleet/fleet-diff.js';
import { emptyFleet, type Fleet } from '../fleet/fleet-model.js';
import { readFleetShape } from '../fleet/fleet-shape.js';
import { ListingSyncError } from '../shared/errors.js';
import type { Queues } from '../queue/queues.js';
import { addSchedule, listSchedules, removeSchedule } from '../queue/schedules.js';
import type { AlertConfig } from '../store/alert-config.js';
import { alertField, type AlertStore } from '../store/alert-store.js';
import type { FleetRecordStore } from '../store/fleet-record-store.js';

export interface FleetDeps {
  syncRuns: Queues['syncRuns'];
  alerts: AlertStore;
  records: FleetRecordStore;
  now(): number;
}

/** The applied fleet, or an empty one when none was applied. */
export async function appliedFleet(deps: Pick<FleetDeps, 'records'>): Promise<{ fleet: Fleet; applied: boolean }> {
  const stored = await deps.records.read();
  if (stored === undefined) return { fleet: emptyFleet(), applied: false };
  const { fleet, problems } = readFleetShape(stored);
  if (problems.length > 0)
    throw new ListingSyncError(
      'INVALID_INPUT',
      `the applied fleet stored in Redis cannot be read by this version ` +
        `(${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}); apply the fleet file again`,
    );
  return { fleet, applied: true };
}

/**
 * An alert as the plan compares it: its settings and webhook URL, without its creation time or
 * shown form (a webhook that does not open here stays sealed: a change, which re-enters it).
 */
function comparableAlert(config: AlertConfig, alerts: Pick<AlertStore, 'openedWebhook'>): Record<string, unknown> {
  const { createdAt: _createdAt, webhookShown: _shown, ...settings } = config;
  return { ...settings, webhook: alerts.openedWebhook(config) ?? config.webhook };
}

/** The installation as the fleet sees it. */
export async function currentFleetSide(deps: FleetDeps): Promise<FleetSide> {
  const { fleet } = await appliedFleet(deps);
  const schedules: Record<string, ScheduleSpec> = {};
  for (const schedule of await listSchedules(deps.syncRuns))
    schedules[schedule.name] = { cron: schedule.cron, ...(schedule.tz ? { tz: schedule.tz } : {}), request: schedule.request };
  const alerts = Object.fromEntries((await deps.alerts.listConfigs()).map((config) => [config.name, comparableAlert(config, deps.alerts)]));
  return { fleet, schedules, alerts };
}

/**
 * Executes a plan: schedules and alerts first, the record last, so that an apply cut short is
 * finished by the next (it finds the same changes still to make).
 */
export async function applyFleetPlan(
  deps: FleetDeps,
  plan: FleetPlan,
  wanted: { schedules: Readonly<Record<string, ScheduleSpec>>; alertConfigs: Readonly<Record<string, Omit<AlertConfig, 'createdAt'>>> },
): Promise<void> {
  const existingAlerts = new Map((await deps.alerts.listConfigs()).map((config) => [config.name, config]));
  for (const change of plan.changes) {
    if (change.kind === 'schedule') {
      const schedule = wanted.schedules[change.name];
      if (change.action === 'remove') await removeSchedule(deps.syncRuns, change.name);
      else if (schedule !== undefined)
        await addSchedule(deps.syncRuns, {
          name: change.name,
          cron: schedule.cron,
          ...(schedule.tz ? { tz: schedule.tz } : {}),
          request: { chatbot: String(schedule.request.chatbot), ...schedule.request },
        });
    } else if (change.kind === 'alert') {
      const config = wanted.alertConfigs[change.name];
      // Removed as `alerts remove` does: its per-chatbot state goes too, so a new alert of that name starts clean.
      if (change.action === 'remove') {
        if (await deps.alerts.removeConfig(change.name))
          await deps.alerts.forgetState(await deps.alerts.trackedChatbots(), alertField(change.name));
      } else if (config !== undefined)
        await deps.alerts.saveConfig({ ...config, createdAt: existingAlerts.get(change.name)?.createdAt ?? deps.now() });
    }
  }
  await deps.records.write(plan.record);
}
