/**
 * `runs show` in words: the run's head line, its times, its live counts and what its sync said
 * (feed, remote, plan, guard, field changes and wipes, replication figures) as labelled values,
 * never as JSON (`--json` prints the record itself).
 */
import { z } from 'zod';
import { humanDuration } from '../../domain/human-duration.js';
import type { RunCounts, RunRecord } from '../../store/run-types.js';
import type { RunSummary } from '../../store/run-summary.js';
import { syncSummaryOf } from '../../sync/summary.js';
import { formatSummary } from '../../sync/format-summary.js';
import { runLine, when } from './format-run.js';
import { count } from '../../shared/counts.js';
import { humanBytes } from './progress-format.js';
import { photosLine } from './format-photos.js';

/** What a replicating run records beside its summary (sync-stores.ts recordReplication; ReplicationOutcome). */
const replicationSchema = z.object({
  status: z.string(),
  recordsPulled: z.number(),
  requests: z.number(),
  bytes: z.number(),
  watermark: z.string().optional(),
  since: z.string().optional(),
  sweep: z.object({ complete: z.boolean(), deleted: z.number() }).optional(),
  halted: z.string().optional(),
});

/** A label and its value, the values lined up. */
const LABEL_WIDTH = 12;
const labelled = (label: string, value: string): string => `${label.padEnd(LABEL_WIDTH - 1)} ${value}`;

/** A line of the sync's summary (labels 8 wide) lined up with these (LABEL_WIDTH wide). */
const relabelled = (line: string): string =>
  line.startsWith(' ')
    ? `${' '.repeat(LABEL_WIDTH - 8)}${line}`
    : line.replace(/^(\S+) +/, (_, label: string) => label.padEnd(LABEL_WIDTH));

/** "filledDefaults" → "filled defaults": a stored name in words. */
const inWords = (name: string): string => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Any stored value as words: "a 1, b 2" for an object, "x; y" for a list; nothing raw. */
function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(valueText).join('; ');
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value).map(([key, part]) => `${inWords(key)} ${valueText(part)}`);
    return parts.length === 0 ? 'none' : parts.join(', ');
  }
  if (typeof value === 'number') return count(value);
  return String(value);
}

function timeLines(run: RunRecord): string[] {
  const took = run.finishedAt === undefined ? '' : ` (took ${humanDuration(run.finishedAt - run.startedAt)})`;
  return [labelled('started', when(run.startedAt)), labelled('finished', `${when(run.finishedAt)}${took}`)];
}

/** The run's live counts: listings by outcome, then jobs. */
function countLines(c: RunCounts, rejected: number): string[] {
  const outcomes = (['created', 'updated', 'deleted', 'unchanged', 'edited', 'superseded', 'cancelled', 'failed'] as const)
    .filter((name) => c[name] > 0 || ['created', 'updated', 'deleted', 'failed'].includes(name))
    .map((name) => `${name} ${count(c[name])}`);
  const retried = c.retried > 0 ? `, ${count(c.retried)} attempts retried` : '';
  return [
    labelled('listings', outcomes.join(', ')),
    labelled('jobs', `${count(c.finishedJobs)} of ${count(c.totalJobs)} finished, ${count(c.failedJobs)} failed for good${retried}`),
    labelled(
      'rejected',
      rejected === 0 ? 'no feed rows' : `${count(rejected)} feed rows (each with its line and reason: --json, or the dashboard)`,
    ),
  ];
}

/** Watermark, records, requests and bytes of a replicating run. */
function replicationLines(summary: RunSummary | null): string[] {
  const parsed = replicationSchema.safeParse(summary?.replication);
  if (!parsed.success) return [];
  const r = parsed.data;
  const sweep =
    r.sweep === undefined
      ? []
      : [`sweep ${r.sweep.complete ? `complete, ${count(r.sweep.deleted)} deleted` : 'incomplete, nothing deleted'}`];
  return [
    labelled('replication', `${r.since === undefined ? 'full pull' : `since ${r.since}`}: ${r.status}${r.halted ? ` (${r.halted})` : ''}`),
    labelled('', `watermark ${r.watermark ?? '-'}`),
    labelled('', `${count(r.recordsPulled)} records, ${count(r.requests)} requests, ${humanBytes(r.bytes)} received`),
    ...sweep.map((line) => labelled('', line)),
  ];
}

/** Known parts are said by the sync's own summary text; a part it does not know is said as labelled words. */
function summaryLines(summary: RunSummary | null): string[] {
  if (summary === null) return [];
  if (typeof summary.skipped === 'string') return [labelled('skipped', summary.skipped)];
  const whole = syncSummaryOf(summary);
  const shown = new Set(['replication', 'skipped']);
  if (whole !== undefined) {
    // The head line of the summary repeats the run's own head: left out.
    const text = formatSummary(whole).trimEnd().split('\n').slice(1).map(relabelled);
    for (const key of Object.keys(whole)) shown.add(key);
    const extra = Object.entries(summary).filter(([key, value]) => !shown.has(key) && value !== undefined);
    return [...text, ...extra.map(([key, value]) => labelled(inWords(key), valueText(value)))];
  }
  // An old or partial record: each part it has, in words.
  return Object.entries(summary)
    .filter(([key, value]) => value !== undefined && !shown.has(key) && !['runId', 'chatbot'].includes(key))
    .map(([key, value]) => labelled(inWords(key), valueText(value)));
}

/** `runs show` for a person. */
export function runDetails(run: RunRecord): string {
  const lines = [
    runLine(run, run.summary?.source),
    ...timeLines(run),
    ...(run.stuckReason === undefined ? [] : [labelled('stuck', run.stuckReason)]),
    ...countLines(run.counts, run.rejectedCount),
    ...summaryLines(run.summary),
    ...replicationLines(run.summary),
    ...(run.summary?.photos === undefined || run.summary.photos === null
      ? []
      : [
          labelled(
            'photos',
            photosLine(run.summary.photos)
              .trimEnd()
              .replace(/^photos: /, ''),
          ),
        ]),
  ];
  return `${lines.join('\n')}\n`;
}
