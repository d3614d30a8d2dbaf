/** The health page: one row per chatbot, trouble first; failing and stale chatbots stand out. */
import { formatTime, html, sentences, type SafeHtml } from '../html.js';
import type { ChatbotHealthView } from '../types.js';
import type { JobTargetView } from '../job-target-view.js';
import { page, type PageContext } from './layout.js';
import { statusCell } from './runs-list.js';

/** Statuses someone must look at (the row is marked, the status shown in the alarm colour). */
const ATTENTION: ReadonlySet<string> = new Set(['failed', 'refused', 'stale', 'budget', 'service-down']);

export function healthStatusCell(status: string): SafeHtml {
  const tone = status === 'healthy' ? 'ok' : ATTENTION.has(status) ? 'bad' : 'muted';
  return html`<span class="badge ${tone}">${status}</span>`;
}

function row(ctx: PageContext, view: ChatbotHealthView): SafeHtml {
  const chatbotHref = `${ctx.base}/chatbots/${encodeURIComponent(view.chatbot)}`;
  const last = view.lastRun;
  return html`<tr class="${ATTENTION.has(view.status) ? 'attention' : ''}" data-chatbot="${view.chatbot}" data-status="${view.status}">
  <td><a class="mono" href="${chatbotHref}">${view.chatbot}</a></td>
  <td>${healthStatusCell(view.status)}${view.reasons.length > 0 ? html`<div class="muted small">${sentences(view.reasons.slice(0, 2))}</div>` : ''}</td>
  <td>${formatTime(view.since)}</td>
  <td>${last ? html`<a class="mono" href="${ctx.base}/runs/${encodeURIComponent(last.runId)}">${last.runId}</a> ${statusCell(last.status)}<div class="muted small">${formatTime(last.startedAt)}</div>` : html`<span class="muted">none</span>`}</td>
  <td>${view.lastSuccess ? html`<a class="mono" href="${ctx.base}/runs/${encodeURIComponent(view.lastSuccess.runId)}">${formatTime(view.lastSuccess.finishedAt)}</a>` : html`<span class="muted">never</span>`}</td>
  <td class="num">${view.streak}</td>
</tr>`;
}

/**
 * The services the waiting jobs are for. Why on this page: a worker leaves the jobs of another
 * service waiting (src/queue/job-gate.ts); jobs for two services under one prefix mean one of
 * them has no worker here, or two installations share the prefix.
 */
function targetsSection(targets: readonly JobTargetView[]): SafeHtml {
  if (targets.length === 0) return html``;
  const tone = targets.length > 1 ? 'bad' : 'muted';
  return html`<h2>Waiting jobs by service</h2>
<ul id="job-targets" class="${tone}">${targets.map(
    (t) =>
      html`<li>${t.jobs} waiting job(s) (run <span class="mono">${t.run}</span>, …) are for <span class="mono">${t.target}</span></li>`,
  )}</ul>
<p class="muted small">Each job records the service it was planned for; a worker configured for another one leaves it waiting.</p>`;
}

export function healthPage(ctx: PageContext, views: readonly ChatbotHealthView[], targets: readonly JobTargetView[] = []): string {
  const attention = views.filter((view) => ATTENTION.has(view.status)).length;
  const body = html`<h1>Health</h1>
<p class="${attention > 0 ? 'bad' : 'muted'}" id="health-summary">${
    views.length === 0
      ? 'No chatbot has run a sync yet.'
      : attention > 0
        ? `${attention} of ${views.length} chatbot(s) need attention.`
        : `All ${views.length} chatbot(s) healthy or waiting.`
  }</p>
${
  views.length === 0
    ? html``
    : html`<table id="health">
<thead><tr><th>Chatbot</th><th>Status</th><th>Since (UTC)</th><th>Last run</th><th>Last successful run</th><th>Streak</th></tr></thead>
<tbody>${views.map((view) => row(ctx, view))}</tbody>
</table>
<p class="muted small">Status by default thresholds: a job failed for good makes it <em>failed</em>; no successful run for 26 h is <em>stale</em>. Streak: consecutive newest runs with this status.</p>`
}${targetsSection(targets)}`;
  return page(ctx, 'Health', body);
}
