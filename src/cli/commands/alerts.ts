/**
 * `listing-sync alerts add|list|remove|test`: webhooks told when a chatbot's health changes
 * (src/sync/health). The webhook URL is a secret: stored in Redis sealed, shown only masked.
 */
import type { Command } from 'commander';
import { ALERT_FORMATS } from '../../domain/health/alert-body.js';
import { ALERT_EVENTS, type AlertEvent } from '../../domain/health/status.js';
import { maskWebhookUrl, shownWebhook, webhookSecrets, webhookUrlProblem } from '../../domain/health/webhook-url.js';
import { webhookClearProblem } from '../../config/clear-credentials.js';
import { registerSecrets } from '../../shared/secret-scrub.js';
import { UsageError } from '../../shared/errors.js';
import type { AlertConfig } from '../../store/alert-config.js';
import { alertOrUsageError, listAlerts, removeAlert, saveAlert, sendTestAlert } from '../../sync/alerts-admin.js';
import { alertStoreOf, deliverNow } from '../wiring/alert-wiring.js';
import { EXIT } from '../exit-codes.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { allowedValue, collect, durationMs, required } from '../input/option-values.js';
import { addRedisOptions, withQueueConfig, type RedisFlags } from '../wiring/with-queue.js';

interface AddFlags extends RedisFlags {
  webhook?: string;
  format?: string;
  on?: string;
  chatbot?: string[];
  failedRows?: string;
  staleAfter?: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const DEFAULT_STALE_AFTER = '26h';

function checkName(name: string): string {
  if (!NAME.test(name)) throw new UsageError(`alert name must be 1-64 of A-Z a-z 0-9 . _ - (got '${name}')`);
  return name;
}

function eventsOf(text: string | undefined): AlertEvent[] {
  if (text === undefined) return [...ALERT_EVENTS];
  const events = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (events.length === 0) throw new UsageError(`--on must list events among ${ALERT_EVENTS.join(', ')}`);
  return [...new Set(events.map((event) => allowedValue(event, '--on', ALERT_EVENTS)))];
}

function percentOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(text.trim());
  const value = Number(match?.[1]);
  if (match === null || !(value >= 0 && value <= 100))
    throw new UsageError(`--failed-rows must be a percentage from 0 to 100 such as 5% (got '${text}')`);
  return value;
}

/**
 * The flags of `alerts add` → the configuration to store (UsageError, exit 2, on any bad flag;
 * `plainHttpHosts`: LISTING_SYNC_PLAIN_HTTP_HOSTS). The webhook's secret parts are registered with
 * the scrubber first, so nothing this process writes afterwards can show them.
 */
export function alertConfigFrom(name: string, flags: AddFlags, now: number, plainHttpHosts: readonly string[] = []): AlertConfig {
  const webhook = required(flags.webhook, '--webhook', "the webhook's URL, e.g. a Slack incoming webhook");
  registerSecrets(webhookSecrets(webhook));
  const problem = webhookUrlProblem(webhook);
  // Why the message never echoes the URL: it is a credential (shown masked at most).
  if (problem !== undefined) throw new UsageError(`--webhook ${problem} (got ${maskWebhookUrl(webhook)})`);
  const clear = webhookClearProblem(webhook, '--webhook', plainHttpHosts);
  if (clear !== undefined) throw new UsageError(clear);
  const staleAfterMs = durationMs(flags.staleAfter ?? DEFAULT_STALE_AFTER, '--stale-after');
  if (staleAfterMs <= 0) throw new UsageError(`--stale-after must be longer than 0 (got '${flags.staleAfter ?? ''}')`);
  const failedRowsPercent = percentOf(flags.failedRows);
  const chatbots = [
    ...new Set(
      (flags.chatbot ?? [])
        .flatMap((item) => item.split(','))
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
  return {
    name: checkName(name),
    webhook,
    format: allowedValue(flags.format ?? 'json', '--format', ALERT_FORMATS),
    on: eventsOf(flags.on),
    chatbots,
    ...(failedRowsPercent === undefined ? {} : { failedRowsPercent }),
    staleAfterMs,
    createdAt: now,
  };
}

/** A configuration as shown: its webhook masked. */
export function shownConfig(config: AlertConfig): Omit<AlertConfig, 'webhook' | 'webhookShown'> & { webhook: string } {
  const { webhookShown: _shown, ...settings } = config;
  return { ...settings, webhook: shownWebhook(config) };
}

function hours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${Math.round(ms / 1000)}s`;
}

function describe(config: AlertConfig): string {
  const parts = [
    config.name,
    config.format,
    shownWebhook(config),
    `on ${config.on.join(',')}`,
    config.chatbots.length === 0 ? 'every chatbot' : `chatbots ${config.chatbots.join(',')}`,
    `stale after ${hours(config.staleAfterMs)}`,
    ...(config.failedRowsPercent === undefined ? [] : [`failed rows over ${config.failedRowsPercent}%`]),
  ];
  return parts.join('  ');
}

function registerAdd(alerts: Command, host: CommandHost): void {
  addRedisOptions(
    alerts
      .command('add')
      .argument('<name>', 'alert name')
      .description("add or replace an alert: a webhook told when a chatbot's health changes")
      .option('--webhook <url>', 'the webhook URL (a secret: stored in Redis, shown masked)')
      .option('--format <format>', `body format: ${ALERT_FORMATS.join(' or ')} (default json)`)
      .option('--on <events>', `comma list of events to send (default all: ${ALERT_EVENTS.join(',')})`)
      .option('--chatbot <serial>', 'only this chatbot (repeatable; default every chatbot)', collect)
      .option('--failed-rows <percent>', 'a run that rejected more than this share of feed rows counts as failed (e.g. 5%)')
      .option('--stale-after <duration>', `stale when no run succeeded for this long (default ${DEFAULT_STALE_AFTER})`),
  ).action((name: string, flags: AddFlags) =>
    withQueueConfig(host, flags, async (ctx, config, json) => {
      const alert = alertConfigFrom(name, flags, Date.now(), config.plainHttpHosts);
      const replaced = await saveAlert(alertStoreOf(ctx, config), alert);
      if (json) printJson(host.io, { ...shownConfig(alert), replaced });
      else host.io.stdout.write(`alert ${alert.name} ${replaced ? 'replaced' : 'added'}: ${describe(alert)}\n`);
    }),
  );
}

export const registerAlertsCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const alerts = program
    .command('alerts')
    .description("webhooks told when a chatbot's health changes (refused, failed, recovered, stale, …)");
  registerAdd(alerts, host);
  addRedisOptions(alerts.command('list').description('alert configurations (webhooks masked)')).action((flags: RedisFlags) =>
    withQueueConfig(host, flags, async (ctx, config, json) => {
      const list = await listAlerts(alertStoreOf(ctx, config));
      if (json) printJson(host.io, { alerts: list.map(shownConfig) });
      else host.io.stdout.write(list.length === 0 ? 'no alerts\n' : `${list.map(describe).join('\n')}\n`);
    }),
  );
  addRedisOptions(alerts.command('remove').argument('<name>', 'alert name').description('remove an alert')).action(
    (name: string, flags: RedisFlags) =>
      withQueueConfig(host, flags, async (ctx, config, json) => {
        const removed = await removeAlert(alertStoreOf(ctx, config), checkName(name));
        if (json) printJson(host.io, { name, removed });
        else host.io.stdout.write(removed ? `alert ${name} removed\n` : `no alert ${name}\n`);
        return removed ? EXIT.ok : EXIT.failed;
      }),
  );
  addRedisOptions(alerts.command('test').argument('<name>', 'alert name').description('send a sample alert to its webhook now')).action(
    (name: string, flags: RedisFlags) =>
      withQueueConfig(host, flags, async (ctx, config, json) => {
        const store = alertStoreOf(ctx, config);
        const alert = await alertOrUsageError(store, checkName(name));
        const where = shownWebhook(alert);
        const clear = webhookClearProblem(store.webhookUrl(alert), `alert ${name}'s webhook`, config.plainHttpHosts);
        if (clear !== undefined) throw new UsageError(`${clear}; replace it with \`listing-sync alerts add ${name} --webhook https://…\``);
        const outcome = await sendTestAlert(alert, deliverNow(store, config), Date.now());
        if (!outcome.sent) {
          if (json) printJson(host.io, { name, sent: false, webhook: where, error: outcome.error });
          else host.io.stderr.write(`alert ${name}: the test to ${where} failed: ${outcome.error}\n`);
          return EXIT.failed;
        }
        if (json) printJson(host.io, { name, sent: true, webhook: where });
        else host.io.stdout.write(`alert ${name}: test sent to ${where}\n`);
        return EXIT.ok;
      }),
  );
};
