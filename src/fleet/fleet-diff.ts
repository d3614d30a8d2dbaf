/**
 * What `fleet apply` would do: the installation as it is (the applied fleet, schedules, alerts)
 * against what the file asks for, as a list of changes. Pure: the use case reads both sides and
 * executes the changes (plan, then execute).
 *
 * Why the fleet only touches what it owns: schedules named `fleet@{source}` of sources it declares
 * or declared (and `fleet-{chatbot}`, the per-chatbot schedules it made before), and alerts it
 * declares or declared. A schedule or alert added by hand
 * under another name is never changed, and one it no longer names is kept unless --prune.
 */
import { fleetScheduleName, fleetSourceScheduleName, type Fleet } from './fleet-model.js';

export const CHANGE_KINDS = ['source', 'chatbot', 'schedule', 'alert'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export type ChangeAction = 'add' | 'change' | 'remove' | 'keep';

export interface FleetChange {
  kind: ChangeKind;
  name: string;
  action: ChangeAction;
  /** For a change: the settings that differ (names only: a value may be a secret). */
  fields?: string[];
}

/** A schedule as the fleet wants it: the sync request is the one `schedule add` would store. */
export interface ScheduleSpec {
  cron: string;
  tz?: string;
  request: Readonly<Record<string, unknown>>;
}

/** Either side of the comparison. An alert is its stored settings (webhook left out when it is not to be compared). */
export interface FleetSide {
  fleet: Fleet;
  schedules: Record<string, ScheduleSpec>;
  alerts: Record<string, Readonly<Record<string, unknown>>>;
}

export interface FleetPlan {
  /** What apply changes. */
  changes: FleetChange[];
  /** What the installation has, the fleet owns, and the file no longer names: kept (without --prune). */
  kept: FleetChange[];
  /** The fleet stored once applied: the file's, plus what is kept. */
  record: Fleet;
}

/** JSON with keys in order, so two equal values print the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

function changedFields(current: Readonly<Record<string, unknown>>, wanted: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  const keys = [...new Set([...Object.keys(current), ...Object.keys(wanted)])].sort();
  return keys.filter((key) => canonicalJson(current[key]) !== canonicalJson(wanted[key])).map((key) => `${prefix}${key}`);
}

function scheduleFields(current: ScheduleSpec, wanted: ScheduleSpec): string[] {
  return [
    ...changedFields({ cron: current.cron, tz: current.tz }, { cron: wanted.cron, tz: wanted.tz }),
    ...changedFields(current.request, wanted.request, 'request.'),
  ];
}

/** Only the members `wanted` has: an alert's webhook is compared only when the file's env variable is known. */
function alertFields(current: Readonly<Record<string, unknown>>, wanted: Readonly<Record<string, unknown>>): string[] {
  const compared = Object.fromEntries(Object.keys(wanted).map((key) => [key, current[key]]));
  return changedFields(compared, wanted);
}

type Compare<T> = (current: T, wanted: T) => string[];

function upserts<T>(kind: ChangeKind, current: Readonly<Record<string, T>>, wanted: Readonly<Record<string, T>>, compare: Compare<T>) {
  return Object.entries(wanted).flatMap(([name, value]): FleetChange[] => {
    const now = current[name];
    if (now === undefined) return [{ kind, name, action: 'add' }];
    const fields = compare(now, value);
    return fields.length === 0 ? [] : [{ kind, name, action: 'change', fields }];
  });
}

const sorted = (names: Iterable<string>): string[] => [...names].sort((a, b) => a.localeCompare(b));

/** The plan that makes `current` what `wanted` asks for; what the fleet no longer names is removed only with `prune`. */
export function planFleet(current: FleetSide, wanted: FleetSide, options: { prune: boolean }): FleetPlan {
  const changes: FleetChange[] = [];
  const kept: FleetChange[] = [];
  const record: Fleet = {
    sources: { ...wanted.fleet.sources },
    chatbots: { ...wanted.fleet.chatbots },
    alerts: { ...wanted.fleet.alerts },
  };
  const leave = (change: Omit<FleetChange, 'action'>, keep: () => void): void => {
    if (options.prune) changes.push({ ...change, action: 'remove' });
    else {
      kept.push({ ...change, action: 'keep' });
      keep();
    }
  };
  const entries = (kind: 'source' | 'chatbot', section: 'sources' | 'chatbots'): void => {
    changes.push(...upserts<object>(kind, current.fleet[section], wanted.fleet[section], (a, b) => changedFields({ ...a }, { ...b })));
    for (const name of sorted(Object.keys(current.fleet[section])))
      if (!(name in wanted.fleet[section]))
        leave({ kind, name }, () => Object.assign(record[section], { [name]: current.fleet[section][name] }));
  };
  entries('source', 'sources');
  entries('chatbot', 'chatbots');

  changes.push(...upserts('schedule', current.schedules, wanted.schedules, scheduleFields));
  const ownedChatbots = new Set([...Object.keys(current.fleet.chatbots), ...Object.keys(wanted.fleet.chatbots)]);
  const ownedSources = new Set([...Object.keys(current.fleet.sources), ...Object.keys(wanted.fleet.sources)]);
  const owned = [
    ...sorted(ownedChatbots).map((chatbot) => ({ name: fleetScheduleName(chatbot), named: chatbot in wanted.fleet.chatbots })),
    ...sorted(ownedSources).map((source) => ({ name: fleetSourceScheduleName(source), named: source in wanted.fleet.sources })),
  ];
  for (const { name, named } of owned) {
    if (current.schedules[name] === undefined || wanted.schedules[name] !== undefined) continue;
    // A chatbot or source the file still names but that has no such schedule now (a chatbot's own
    // schedule, replaced by its source's; a source that lost its schedule) loses it whatever --prune
    // says: the file is explicit about it.
    if (named) changes.push({ kind: 'schedule', name, action: 'remove' });
    else leave({ kind: 'schedule', name }, () => undefined);
  }

  changes.push(...upserts('alert', current.alerts, wanted.alerts, alertFields));
  for (const name of sorted(Object.keys(current.fleet.alerts)))
    if (!(name in wanted.fleet.alerts) && current.alerts[name] !== undefined)
      leave({ kind: 'alert', name }, () => Object.assign(record.alerts, { [name]: current.fleet.alerts[name] }));

  return { changes, kept, record };
}
