/**
 * The fleet page: every chatbot of the applied fleet (`fleet apply`), grouped by source — the
 * source's feed (never its credentials), then per chatbot its filter in words, its schedule, its
 * newest run and its health status.
 */
import { formatTime, html, type SafeHtml } from '../html.js';
import type { FleetChatbotView } from '../fleet-types.js';
import { page, type PageContext } from './layout.js';
import { healthStatusCell } from './health.js';
import { statusCell } from './runs-list.js';

const plural = (count: number, one: string, many: string): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

function scheduleCell(view: FleetChatbotView): SafeHtml {
  const { schedule, declared } = view;
  if (schedule !== undefined)
    return html`<span class="mono">${schedule.cron}</span> ${schedule.tz ?? 'each worker’s time zone'}${
      schedule.next === undefined ? '' : html`<div class="muted small">next ${formatTime(schedule.next)}</div>`
    }`;
  if (declared !== undefined)
    return html`<span class="mono">${declared.cron}</span> ${declared.tz ?? ''}<div class="muted small">declared, not scheduled yet</div>`;
  return html`<span class="muted">not scheduled</span>`;
}

function lastRunCell(ctx: PageContext, view: FleetChatbotView): SafeHtml {
  const last = view.lastRun;
  if (last === undefined) return html`<span class="muted">no run yet</span>`;
  return html`<a class="mono" href="${ctx.base}/runs/${encodeURIComponent(last.runId)}">${last.runId}</a> ${statusCell(last.status)}
<div class="muted small">${formatTime(last.startedAt)}</div>`;
}

function row(ctx: PageContext, view: FleetChatbotView): SafeHtml {
  const name =
    view.lastRun === undefined
      ? html`<span class="mono">${view.chatbot}</span>`
      : html`<a class="mono" href="${ctx.base}/chatbots/${encodeURIComponent(view.chatbot)}">${view.chatbot}</a>`;
  return html`<tr data-chatbot="${view.chatbot}" data-source="${view.source}" data-status="${view.health}">
  <td>${name}</td>
  <td>${view.source}</td>
  <td>${view.filter ?? html`<span class="muted">every record</span>`}</td>
  <td>${scheduleCell(view)}</td>
  <td>${lastRunCell(ctx, view)}</td>
  <td>${healthStatusCell(view.health)}</td>
</tr>`;
}

/** The chatbots grouped by source, in the order given (by source, then chatbot). */
function bySource(views: readonly FleetChatbotView[]): Array<{ source: string; feed: string; chatbots: FleetChatbotView[] }> {
  const groups = new Map<string, { source: string; feed: string; chatbots: FleetChatbotView[] }>();
  for (const view of views) {
    const group = groups.get(view.source) ?? { source: view.source, feed: view.feed, chatbots: [] };
    group.chatbots.push(view);
    groups.set(view.source, group);
  }
  return [...groups.values()];
}

const EMPTY = html`<p class="muted" id="fleet-empty">No fleet applied yet. Declare your sources and chatbots in a
<code>fleet.yaml</code>, then run <code>listing-sync fleet apply fleet.yaml</code>; this page then lists every chatbot
with its source, filter, schedule, last run and status.</p>`;

export function fleetPage(ctx: PageContext, views: readonly FleetChatbotView[]): string {
  const groups = bySource(views);
  const body = html`<h1>Fleet</h1>
${
  views.length === 0
    ? EMPTY
    : html`<p class="muted" id="fleet-summary">${plural(views.length, 'chatbot', 'chatbots')} on ${plural(groups.length, 'source', 'sources')}.</p>
<table id="fleet">
<thead><tr><th>Chatbot</th><th>Source</th><th>Filter</th><th>Schedule (next in UTC)</th><th>Last run (UTC)</th><th>Status</th></tr></thead>
${groups.map(
  (group) => html`<tbody data-source="${group.source}">
<tr class="group"><th colspan="6" scope="rowgroup">Source ${group.source} · ${plural(group.chatbots.length, 'chatbot', 'chatbots')} ·
<span class="mono">${group.feed}</span></th></tr>
${group.chatbots.map((view) => row(ctx, view))}
</tbody>`,
)}
</table>
<p class="muted small">Filter: the records of the source each chatbot receives (fleet.yaml <code>where</code>). Status as on the
health page; last run: the chatbot's newest sync.</p>`
}`;
  return page(ctx, 'Fleet', body);
}
