/**
 * One chatbot's history as charts: its runs of the last 30 days (stacked created, updated,
 * deleted, failed; the run's duration as a line) and its remembered final failures by envelope
 * Code per day; the numbers again as a table below.
 */
import { stackedBarChart, type Bar } from '../charts/stacked-bars.js';
import { formatDuration, formatTime, html } from '../html.js';
import type { ChatbotHealthView, FailureView, RunListItem } from '../types.js';
import { page, type PageContext } from './layout.js';
import { healthStatusCell } from './health.js';
import { statusCell } from './runs-list.js';

export const CHART_DAYS = 30;
const DAY_MS = 86_400_000;

const RUN_SERIES = [
  { key: 'created', label: 'created', color: '#1f7a3a' },
  { key: 'updated', label: 'updated', color: '#2454c7' },
  { key: 'deleted', label: 'deleted', color: '#8a5a00' },
  { key: 'failed', label: 'failed', color: '#b3261e' },
] as const;

const CODE_COLORS = ['#b3261e', '#8a5a00', '#6b3fa0', '#2454c7', '#1f7a3a', '#c2185b', '#00796b', '#5b6578'];

function durationSeconds(run: RunListItem): number {
  return run.finishedAt === undefined ? 0 : Math.max(0, (run.finishedAt - run.startedAt) / 1000);
}

/** UTC start-time labels, coarsest first: month-day and minute, then seconds, then milliseconds. */
const TIME_LABELS: ReadonlyArray<(ms: number) => string> = [
  (ms) => new Date(ms).toISOString().slice(5, 16).replace('T', ' '),
  (ms) => new Date(ms).toISOString().slice(5, 19).replace('T', ' '),
  (ms) => new Date(ms).toISOString().slice(5, 23).replace('T', ' '),
];

/**
 * A label per start time, no two alike: the coarsest format that tells them apart (runs started
 * within one minute show their seconds), and a "#2" suffix for starts no format tells apart (the same millisecond).
 * Why: two ticks that read the same minute name two runs as one.
 */
export function distinctTimeLabels(times: readonly number[]): string[] {
  const format = TIME_LABELS.find((label) => new Set(times.map(label)).size === new Set(times).size) ?? TIME_LABELS[2];
  const labels = times.map((ms) => format?.(ms) ?? String(ms));
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return n === 1 ? label : `${label} #${n}`;
  });
}

function runBars(ctx: PageContext, runs: readonly RunListItem[]): Bar[] {
  const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  const labels = distinctTimeLabels(sorted.map((run) => run.startedAt));
  return sorted.map((run, i) => ({
    id: run.runId,
    label: labels[i] ?? '',
    values: { created: run.counts.created, updated: run.counts.updated, deleted: run.counts.deleted, failed: run.counts.failed },
    line: durationSeconds(run),
    href: `${ctx.base}/runs/${encodeURIComponent(run.runId)}`,
  }));
}

/** Failures per UTC day (the last CHART_DAYS days), stacked by Code. */
export function failureBars(failures: readonly FailureView[], now: number): { bars: Bar[]; codes: string[] } {
  const codes = [...new Set(failures.map((failure) => failure.code))].sort();
  const firstDay = Math.floor(now / DAY_MS) - CHART_DAYS + 1;
  const bars: Bar[] = Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = new Date((firstDay + i) * DAY_MS).toISOString().slice(0, 10);
    return { id: day, label: day.slice(5), values: {} };
  });
  for (const failure of failures) {
    const bar = bars[Math.floor(failure.at / DAY_MS) - firstDay];
    if (bar === undefined) continue;
    const key = `code${codes.indexOf(failure.code)}`;
    bar.values = { ...bar.values, [key]: (bar.values[key] ?? 0) + 1 };
  }
  return { bars, codes };
}

export function chatbotPage(
  ctx: PageContext,
  chatbot: string,
  health: ChatbotHealthView | undefined,
  runs: readonly RunListItem[],
  failures: readonly FailureView[],
  now: number,
): string {
  const failuresChart = failureBars(failures, now);
  const body = html`<h1>Chatbot <span class="mono">${chatbot}</span> ${health ? healthStatusCell(health.status) : ''}</h1>
<p><a href="${ctx.base}/?chatbot=${encodeURIComponent(chatbot)}">All its runs</a> · <a href="${ctx.base}/health">Health of every chatbot</a> · <a href="${ctx.base}/chatbots/${encodeURIComponent(chatbot)}/photos">Photos of its listings</a></p>
<h2>Runs of the last ${CHART_DAYS} days</h2>
${stackedBarChart({
  id: 'runs-chart',
  title: `Runs of ${chatbot}: listings created, updated, deleted and failed per run, and the run's duration`,
  series: RUN_SERIES,
  bars: runBars(ctx, runs),
  line: { label: 'duration', color: '#1d2430', unit: 's' },
})}
<h2>Failures by Code</h2>
${
  failures.length === 0
    ? html`<p class="muted" id="failures-chart-empty">No remembered failures: every key's last write succeeded.</p>`
    : stackedBarChart({
        id: 'failures-chart',
        title: `Final job failures of ${chatbot} per day, by envelope Code`,
        series: failuresChart.codes.map((code, i) => ({
          key: `code${i}`,
          label: code,
          color: CODE_COLORS[i % CODE_COLORS.length] ?? '#5b6578',
        })),
        bars: failuresChart.bars,
      })
}
<p class="muted small">Failures are the keys whose last job failed for good (a key leaves once a later write of it succeeds).</p>
<h2>The numbers</h2>
<table id="chart-runs"><thead><tr><th>Run</th><th>Started (UTC)</th><th>Status</th><th>Created</th><th>Updated</th><th>Deleted</th><th>Failed</th><th>Duration</th></tr></thead>
<tbody>${runs.map(
    (
      run,
    ) => html`<tr data-run="${run.runId}"><td><a class="mono" href="${ctx.base}/runs/${encodeURIComponent(run.runId)}">${run.runId}</a></td>
<td>${formatTime(run.startedAt)}</td><td>${statusCell(run.status)}</td><td class="num">${run.counts.created}</td><td class="num">${run.counts.updated}</td>
<td class="num">${run.counts.deleted}</td><td class="num">${run.counts.failed}</td><td>${formatDuration(run.startedAt, run.finishedAt)}</td></tr>`,
  )}</tbody></table>`;
  return page(ctx, `Chatbot ${chatbot}`, body);
}
