/**
 * The bodies an alert is posted with (pure): `json` (the contract fields) and `slack` (a Block Kit
 * message). Built only from the alert message, which never holds a secret of the service or the
 * feed: a chatbot id, a run id, counts and reasons (the guard's and the run's own words).
 */
import type { AlertEvent, HealthStatus } from './status.js';

export const ALERT_FORMATS = ['json', 'slack'] as const;
export type AlertFormat = (typeof ALERT_FORMATS)[number];

/** What an alert says. `status` is the event (`recovered` for a return to healthy, `test` for `alerts test`). */
export interface AlertMessage {
  status: AlertEvent | 'test';
  previousStatus: HealthStatus | null;
  chatbot: string;
  runId: string | null;
  /** ISO time the run started, or null (a stale chatbot without runs). */
  startedAt: string | null;
  counts: { created: number; updated: number; deleted: number; failed: number; rejected: number };
  reasons: string[];
}

/** The json body: exactly the contract's fields, dashboardUrl only when a public dashboard URL is configured. */
export interface JsonAlertBody extends AlertMessage {
  dashboardUrl?: string;
}

/** A link to the run (or the chatbot's health page) on the public dashboard. */
export function dashboardLink(base: string | undefined, message: Pick<AlertMessage, 'runId' | 'chatbot'>): string | undefined {
  if (base === undefined) return undefined;
  const root = base.replace(/\/+$/, '');
  return message.runId === null
    ? `${root}/chatbots/${encodeURIComponent(message.chatbot)}`
    : `${root}/runs/${encodeURIComponent(message.runId)}`;
}

export function jsonBody(message: AlertMessage, dashboardBase: string | undefined): JsonAlertBody {
  const link = dashboardLink(dashboardBase, message);
  return { ...message, reasons: [...message.reasons], ...(link === undefined ? {} : { dashboardUrl: link }) };
}

/** Slack's mrkdwn control characters, escaped as Slack asks (&, <, >). */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const HEADLINE: Readonly<Record<AlertMessage['status'], string>> = {
  refused: 'Sync refused by the safety guard',
  failed: 'Sync failed',
  recovered: 'Sync recovered',
  skipped: 'Scheduled sync skipped (chatbot busy)',
  stale: 'No successful sync lately',
  budget: 'Feed request budget exhausted',
  'service-down': 'Service down: sync paused',
  test: 'Test alert from listing-sync',
};

/** Reasons shown in a Slack message: the first few, the rest counted. */
export const SLACK_REASONS_SHOWN = 3;

export type SlackText = { type: 'plain_text'; text: string; emoji?: boolean } | { type: 'mrkdwn'; text: string };
export type SlackBlock =
  | { type: 'header'; text: { type: 'plain_text'; text: string; emoji?: boolean } }
  | { type: 'section'; text?: SlackText; fields?: SlackText[] }
  | { type: 'context'; elements: SlackText[] }
  | { type: 'actions'; elements: Array<{ type: 'button'; text: { type: 'plain_text'; text: string }; url: string; action_id: string }> };

export interface SlackBody {
  /** The notification's fallback text. */
  text: string;
  blocks: SlackBlock[];
}

/** A Slack message with blocks: headline, status and chatbot, counts, the first reasons, and a link. Within Slack's length limits. */
export function slackBody(message: AlertMessage, dashboardBase: string | undefined): SlackBody {
  const headline = `${HEADLINE[message.status]}: ${message.chatbot}`;
  const c = message.counts;
  const fields: SlackText[] = [
    { type: 'mrkdwn', text: `*Status*\n${message.status}${message.previousStatus === null ? '' : ` (was ${message.previousStatus})`}` },
    { type: 'mrkdwn', text: `*Chatbot*\n${cut(slackEscape(message.chatbot), 1900)}` },
    {
      type: 'mrkdwn',
      text: `*Counts*\ncreated ${c.created}, updated ${c.updated}, deleted ${c.deleted}, failed ${c.failed}, rejected ${c.rejected}`,
    },
    { type: 'mrkdwn', text: `*Run*\n${message.runId === null ? 'none' : cut(slackEscape(message.runId), 1900)}` },
  ];
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(headline, 150) } },
    { type: 'section', fields },
  ];
  const shown = message.reasons.slice(0, SLACK_REASONS_SHOWN).map((reason) => `• ${slackEscape(reason)}`);
  const more = message.reasons.length - shown.length;
  if (shown.length > 0) {
    const text = `${shown.join('\n')}${more > 0 ? `\n…and ${more} more` : ''}`;
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cut(text, 3000) } });
  }
  const link = dashboardLink(dashboardBase, message);
  if (link !== undefined && link.length <= 3000)
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the dashboard' }, url: link, action_id: 'open-dashboard' }],
    });
  if (message.startedAt !== null)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `run started ${message.startedAt}` }] });
  return { text: cut(headline, 3000), blocks };
}

/** The body for `format`. */
export function alertBody(format: AlertFormat, message: AlertMessage, dashboardBase: string | undefined): JsonAlertBody | SlackBody {
  return format === 'slack' ? slackBody(message, dashboardBase) : jsonBody(message, dashboardBase);
}
