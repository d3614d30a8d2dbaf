/** The runs list: one row per sync, newest first. */
import { formatDuration, formatTime, html, type SafeHtml } from '../html.js';
import { sentences } from '../html.js';
import type { RunListItem } from '../types.js';
import { page, type PageContext } from './layout.js';

/** Guard verdict as a word a person scans for: passed, refused, or forced past a refusal. */
export function guardCell(guard: RunListItem['guard']): SafeHtml {
  if (guard.forced) return html`<span class="warn" title="${sentences(guard.reasons)}">forced</span>`;
  if (guard.ok) return html`<span class="ok">passed</span>`;
  return html`<span class="bad" title="${sentences(guard.reasons)}">refused</span>`;
}

/** Why stuck stands out with failed: a stuck run holds work nobody is doing. Skipped and cancelled were decisions. */
const BAD_STATUSES: ReadonlySet<string> = new Set(['failed', 'refused', 'stuck']);

export function statusCell(status: string): SafeHtml {
  const tone = status === 'done' ? 'ok' : BAD_STATUSES.has(status) ? 'bad' : 'muted';
  return html`<span class="${tone}">${status}</span>`;
}

function row(ctx: PageContext, run: RunListItem, sourceColumn: boolean): SafeHtml {
  const c = run.counts;
  return html`<tr>
  <td><a class="mono" href="${ctx.base}/runs/${encodeURIComponent(run.runId)}">${run.runId}</a></td>
  <td>${run.chatbot}</td>
  ${sourceColumn ? html`<td>${run.source ?? html`<span class="muted">none</span>`}</td>` : ''}
  <td>${formatTime(run.startedAt)}</td>
  <td>${formatDuration(run.startedAt, run.finishedAt)}</td>
  <td>${statusCell(run.status)}</td>
  <td>${run.trigger}</td>
  <td class="num">${c.created}</td><td class="num">${c.updated}</td><td class="num">${c.deleted}</td>
  <td class="num ${c.failed > 0 ? 'bad' : ''}">${c.failed}</td><td class="num">${c.retried}</td>
  <td>${guardCell(run.guard)}</td>
  <td>${run.guard.forced ? 'yes' : 'no'}</td>
</tr>`;
}

export function runsListPage(ctx: PageContext, runs: readonly RunListItem[], chatbot: string | undefined): string {
  // Why a Source column only when a run has one: an installation without a fleet reads as before.
  const sourceColumn = runs.some((run) => run.source !== undefined);
  const body = html`<h1>Runs${chatbot ? html` of <span class="mono">${chatbot}</span>` : ''}</h1>
${
  runs.length === 0
    ? html`<p class="muted">No runs recorded yet. Run <code>listing-sync sync</code> to make one.</p>`
    : html`<table id="runs">
<thead><tr><th>Run</th><th>Chatbot</th>${sourceColumn ? html`<th>Source</th>` : ''}<th>Started (UTC)</th><th>Duration</th><th>Status</th><th>Trigger</th>
<th>Created</th><th>Updated</th><th>Deleted</th><th>Failed</th><th>Retried</th><th>Guard</th><th>Forced</th></tr></thead>
<tbody>${runs.map((run) => row(ctx, run, sourceColumn))}</tbody>
</table>`
}`;
  return page(ctx, 'Runs', body);
}
