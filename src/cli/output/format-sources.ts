/** The text of `sources list` and `sources show`: figures only, the feed in its display form. */
import { displaySource } from '../../feed/feed-source.js';
import type { FeedBudgetUsage } from '../../store/feed-budget.js';
import type { FeedSource } from '../../store/feed-sources.js';
import type { FleetSequence } from '../../sync/fleet-sequence.js';
import { when } from './format-run.js';
import { count, plural } from '../../shared/counts.js';

const WINDOW_NAMES: Readonly<Record<string, string>> = { perSecond: '/s', perHour: '/h', perDay: '/d' };

/** One line of `sources list`, with the budget usage when --feed-budget asked for it. */
export function sourceLine(source: FeedSource, usage?: FeedBudgetUsage): string {
  const last = source.lastRun;
  const run = last === undefined ? 'no run yet' : `last run ${last.runId} ${when(last.at)} ${last.status}`;
  const budget = usage === undefined ? '' : `  ${budgetLine(usage)}`;
  return (
    `${source.chatbot}  ${displaySource(source.feed)}  watermark ${source.watermark ?? '-'}  ${run}  ` +
    `records ${count(source.totals.recordsPulled)}  requests ${count(source.totals.requests)}  bytes ` +
    `${count(source.totals.bytes)}${budget}`
  );
}

/**
 * Budget usage, e.g. "1/2/s, 40/7200/h, 1,200 bytes this hour of 4,000,000,000". Why the windows'
 * figures are not grouped: they read as the --feed-budget spec is written (2/s,7200/h), where a
 * comma separates windows.
 */
export function budgetLine(usage: FeedBudgetUsage | undefined): string {
  if (usage === undefined) return 'budget: pass --feed-budget SPEC (or a preset) to show its usage';
  const windows = usage.requests.map(({ window, limit, used }) => `${used}/${limit}${WINDOW_NAMES[window] ?? window}`);
  const cap = usage.bytesPerHour === undefined ? '' : ` of ${count(usage.bytesPerHour)}`;
  const bytes = `${plural(usage.bytesThisHour, 'byte')} this hour${cap}`;
  const wait = usage.exhausted === undefined ? '' : `; exhausted (${usage.exhausted.window}) until ${when(usage.exhausted.retryAtMs)}`;
  return `budget: ${[...windows, bytes].join(', ')}${wait}`;
}

/** The block of `sources show`. */
export function sourceBlock(source: FeedSource, usage: FeedBudgetUsage | undefined): string {
  const last = source.lastRun;
  const sweep = source.lastSweep;
  const lines = [
    `chatbot ${source.chatbot}  feed ${displaySource(source.feed)}`,
    `watermark: ` +
      `${source.watermark === undefined ? '- (the next run pulls everything)' : `${source.watermark} (set ${when(source.watermarkAt)})`}`,
    ...(source.eventSequence === undefined && source.eventMode === undefined
      ? []
      : [
          `events: sequence ${source.eventSequence ?? '-'}` +
            `${source.eventSequenceAt === undefined ? '' : ` (set ${when(source.eventSequenceAt)})`}, ` +
            `last mode ${source.eventMode === 'resync' ? 'resync (full pull)' : (source.eventMode ?? '-')}`,
        ]),
    last === undefined
      ? 'last run: -'
      : `last run: ${last.runId} ${when(last.at)} ${last.status}: ${plural(last.recordsPulled, 'record')}, ` +
        `${plural(last.requests, 'request')}, ${plural(last.bytes, 'byte')}`,
    `totals: ${plural(source.totals.runs, 'run')}, ${plural(source.totals.recordsPulled, 'record')}, ` +
      `${plural(source.totals.requests, 'request')}, ${plural(source.totals.bytes, 'byte')}`,
    ...(sweep === undefined
      ? []
      : [`last sweep: ${when(sweep.at)} ${sweep.complete ? 'complete' : 'incomplete'}, ${count(sweep.deleted)} deleted`]),
    ...(source.resetAt === undefined ? [] : [`reset: ${when(source.resetAt)}`]),
    budgetLine(usage),
  ];
  return `${lines.join('\n')}\n`;
}

/** Where a fleet source stands in its EntityEvent log, in one line (`fleet show` puts it after '# '). */
export function fleetSequenceLine(shown: FleetSequence): string {
  const head = `fleet source ${shown.source}: EntityEvent`;
  if (shown.sequence !== undefined)
    return `${head}, its next run reads the events after sequence ${shown.sequence} (the oldest of its ${shown.chatbots.length} chatbots')`;
  const none = shown.chatbots.filter((chatbot) => chatbot.sequence === undefined).map((chatbot) => chatbot.chatbot);
  return `${head}, no sequence yet for ${none.join(', ')}: its next run resyncs in full`;
}
