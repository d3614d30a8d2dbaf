/**
 * What a parsed fleet file asks the installation to hold: the schedules (one per source that has a
 * schedule, running its fan-out), the alerts, and the fleet record itself, each value checked by the
 * parser its flag uses (cron as `schedule add`, settings as `sync`, alerts as `alerts add`).
 * Every problem is collected, placed at its line and column, before anything is read from Redis.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { plainHttpHostList } from '../../config/clear-credentials.js';
import { UsageError, coerceError } from '../../shared/errors.js';
import { isUrl, unstorableSourceReason } from '../../feed/feed-source.js';
import type { FleetSide, ScheduleSpec } from '../../fleet/fleet-diff.js';
import { fleetSourceScheduleName, type Fleet, type FleetAlert, type FleetSource } from '../../fleet/fleet-model.js';
import type { ShapeProblem } from '../../fleet/fleet-shape.js';
import type { ParsedFleet } from '../../fleet/fleet-yaml.js';
import { orderedProblems, type FleetProblem } from '../../fleet/fleet-problems.js';
import { CRON_EXAMPLE, cronProblem } from '../../queue/cron.js';
import type { AlertConfig } from '../../store/alert-config.js';
import { scheduledFeedProblem } from '../../sync/schedule-check.js';
import { alertConfigFrom } from '../commands/alerts.js';
import { fanOutPayload } from '../../sync/fleet-schedule.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { fanOutRequest, fleetSyncRequest } from './fleet-requests.js';
import { validTimeZone } from './zoned-time.js';

/** An alert as stored, without its creation time. */
export type FleetAlertConfig = Omit<AlertConfig, 'createdAt'>;

export interface FleetTarget {
  side: FleetSide;
  /** The alerts to store, with their webhook URLs (only when every env variable is set). */
  alertConfigs: Record<string, FleetAlertConfig>;
  /** Lines to say besides the changes (an env variable is not set). */
  notes: string[];
}

/** A URL that passes the webhook check, standing in for an env variable that is not set where only the settings are checked. */
const STAND_IN_WEBHOOK = 'https://hooks.example.com/listing-sync-fleet-check';

/** Relative paths are the file's (it is kept beside its mappings and feeds); a schedule stores them absolute. */
function resolvePaths(fleet: Fleet, fileDir: string): void {
  for (const source of Object.values(fleet.sources)) {
    if (source.feed !== '' && !isUrl(source.feed) && !isAbsolute(source.feed)) source.feed = resolve(fileDir, source.feed);
    if (source.mapping !== undefined && !isAbsolute(source.mapping)) source.mapping = resolve(fileDir, source.mapping);
  }
}

async function sourceProblems(name: string, source: FleetSource): Promise<ShapeProblem[]> {
  const at = (...path: string[]): string[] => ['sources', name, ...path];
  const problems: ShapeProblem[] = [];
  if (source.schedule !== undefined) {
    const { cron, tz } = source.schedule;
    if (tz !== undefined && !validTimeZone(tz))
      problems.push({ path: at('schedule', 'tz'), message: `must be an IANA time zone such as America/Chicago (got '${tz}')` });
    const cronIssue = cronProblem(cron, tz !== undefined && validTimeZone(tz) ? tz : undefined);
    if (cronIssue !== undefined)
      problems.push({ path: at('schedule', 'cron'), message: `'${cron}' is not a cron pattern: ${cronIssue}; ${CRON_EXAMPLE}` });
  }
  if (source.feed !== '') {
    const unstorable = unstorableSourceReason(source.feed);
    // Why refused: the feed is stored in Redis with the schedule, where credentials must never be.
    if (unstorable !== undefined) problems.push({ path: at('feed'), message: `cannot be stored: ${unstorable}` });
    else {
      const feedIssue = await scheduledFeedProblem(source.feed);
      if (feedIssue !== undefined) problems.push({ path: at('feed'), message: feedIssue.replace(/^--feed /, '') });
    }
  }
  if (source.mapping !== undefined) {
    const found = await stat(source.mapping).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!found)
      problems.push({ path: at('mapping'), message: `'${source.mapping}' is not a file (a mapping path is relative to the fleet file)` });
  }
  return [...problems, ...fleetSyncRequest({ source: name }, source, undefined).problems];
}

const ALERT_SETTING_OF_FLAG: Readonly<Record<string, string>> = {
  '--format': 'format',
  '--on': 'on',
  '--failed-rows': 'failedRows',
  '--stale-after': 'staleAfter',
  '--webhook': 'webhookEnv',
};

/** The flags of `alerts add` an alert's settings mean. */
function alertFlags(alert: FleetAlert, webhook: string) {
  return {
    webhook,
    ...(alert.format === undefined ? {} : { format: alert.format }),
    ...(alert.on === undefined ? {} : { on: alert.on.join(',') }),
    ...(alert.chatbots === undefined ? {} : { chatbot: alert.chatbots }),
    ...(alert.failedRows === undefined ? {} : { failedRows: alert.failedRows }),
    ...(alert.staleAfter === undefined ? {} : { staleAfter: alert.staleAfter }),
  };
}

/** `alerts add`'s configuration of these flags, or its refusal placed at the setting it names. */
function alertConfigOrProblem(
  name: string,
  alert: FleetAlert,
  flags: ReturnType<typeof alertFlags>,
  plainHttpHosts: readonly string[],
): AlertConfig | ShapeProblem {
  try {
    return alertConfigFrom(name, flags, 0, plainHttpHosts);
  } catch (thrown) {
    const message = coerceError(thrown).message;
    const flag = /^--[a-z-]+/.exec(message)?.[0] ?? '';
    const setting = ALERT_SETTING_OF_FLAG[flag];
    const text =
      flag === '--webhook'
        ? `the URL in ${alert.webhookEnv}${message.slice(flag.length)}`
        : message.slice(setting ? flag.length : 0).trim();
    return { path: setting === undefined ? ['alerts', name] : ['alerts', name, setting], message: text };
  }
}

function alertTarget(fleet: Fleet, env: Readonly<Record<string, string | undefined>>, needWebhooks: boolean, target: FleetTarget) {
  const problems: ShapeProblem[] = [];
  const plainHttpHosts = plainHttpHostList(env.LISTING_SYNC_PLAIN_HTTP_HOSTS ?? '');
  for (const [name, alert] of Object.entries(fleet.alerts)) {
    // Without webhookEnv (reported already) the other settings are still checked.
    const url = alert.webhookEnv === '' ? undefined : env[alert.webhookEnv];
    const known = url !== undefined && url.trim() !== '';
    if (!known && needWebhooks && alert.webhookEnv !== '')
      problems.push({
        path: ['alerts', name, 'webhookEnv'],
        message: `${alert.webhookEnv} is not set: apply stores the webhook URL it holds`,
      });
    if (!known && !needWebhooks && alert.webhookEnv !== '')
      target.notes.push(`alert ${name}: ${alert.webhookEnv} is not set here, so its webhook URL is not compared`);
    // Each setting on its own first: `alerts add` stops at the first bad flag, and the file's every problem is wanted.
    const single = (['format', 'on', 'chatbots', 'failedRows', 'staleAfter'] as const).flatMap((key) => {
      const flags = alertFlags({ webhookEnv: alert.webhookEnv, [key]: alert[key] }, STAND_IN_WEBHOOK);
      const outcome = alertConfigOrProblem(name, alert, flags, plainHttpHosts);
      return 'path' in outcome ? [outcome] : [];
    });
    const outcome = single[0] ?? alertConfigOrProblem(name, alert, alertFlags(alert, known ? url : STAND_IN_WEBHOOK), plainHttpHosts);
    if ('path' in outcome) {
      problems.push(...(single.length > 0 ? single : [outcome]));
      continue;
    }
    const { createdAt: _createdAt, webhook, ...settings } = outcome;
    target.alertConfigs[name] = { ...settings, webhook };
    // Why the webhook is compared only when known: diff may run where the secret is not set.
    target.side.alerts[name] = known ? { ...settings, webhook } : settings;
  }
  return problems;
}

/**
 * The target of a parsed file, or a UsageError listing every problem (`file:line:col: path: what`).
 * `needWebhooks`: apply stores the alerts, so their env variables must be set; diff only compares.
 */
export async function fleetTarget(
  parsed: ParsedFleet,
  options: { fileDir: string; env: Readonly<Record<string, string | undefined>>; needWebhooks: boolean },
): Promise<{ target: FleetTarget; problems: FleetProblem[] }> {
  const fleet = parsed.fleet;
  resolvePaths(fleet, options.fileDir);
  const schedules: Record<string, ScheduleSpec> = {};
  const target: FleetTarget = { side: { fleet, schedules, alerts: {} }, alertConfigs: {}, notes: [] };
  const problems: ShapeProblem[] = [];
  for (const [name, source] of Object.entries(fleet.sources)) problems.push(...(await sourceProblems(name, source)));
  const bySource = new Map<string, SyncRequest[]>();
  for (const [name, chatbot] of Object.entries(fleet.chatbots)) {
    const source = fleet.sources[chatbot.source];
    if (source === undefined) continue;
    const outcome = fleetSyncRequest({ source: chatbot.source, chatbot: name }, source, chatbot);
    problems.push(...outcome.problems);
    if (outcome.request === undefined) continue;
    bySource.set(chatbot.source, [...(bySource.get(chatbot.source) ?? []), fanOutRequest(outcome.request, chatbot.source, chatbot)]);
  }
  // Why one schedule per source rather than one per chatbot: each occurrence pulls the source once
  // and gives every chatbot its where's share (fleet-schedule.ts), whatever the number of chatbots.
  for (const [name, requests] of bySource) {
    const source = fleet.sources[name];
    if (source?.schedule === undefined) continue;
    schedules[fleetSourceScheduleName(name)] = {
      cron: source.schedule.cron,
      ...(source.schedule.tz ? { tz: source.schedule.tz } : {}),
      request: fanOutPayload(name, source.sweep === true, requests),
    };
  }
  problems.push(...alertTarget(fleet, options.env, options.needWebhooks, target));
  return { target, problems: orderedProblems([...parsed.problems, ...problems.map(parsed.locate)]) };
}

/** The one error a file with problems ends in (exit 2, nothing changed). */
export function fleetFileError(
  file: string,
  problems: readonly FleetProblem[],
  line: (file: string, p: FleetProblem) => string,
): UsageError {
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return new UsageError(`${file} has ${count}; nothing was changed:\n${problems.map((p) => `  ${line(file, p)}`).join('\n')}`);
}
