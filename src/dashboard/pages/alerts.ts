/** The alert configurations (webhooks masked) and their last deliveries. */
import { formatTime, html } from '../html.js';
import type { AlertConfigView, AlertDeliveryView } from '../types.js';
import { page, type PageContext } from './layout.js';

function hours(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 1000)} s`;
}

/** `queue`: the alerts queue's name as bull-board knows it. */
export function alertsPage(
  ctx: PageContext,
  configs: readonly AlertConfigView[],
  deliveries: readonly AlertDeliveryView[],
  queue: string,
): string {
  const body = html`<h1>Alerts</h1>
${
  configs.length === 0
    ? html`<p class="muted" id="no-alerts">No alerts configured. Add one with <code>listing-sync alerts add NAME --webhook URL</code>.</p>`
    : html`<table id="alert-configs"><thead><tr><th>Name</th><th>Format</th><th>Webhook</th><th>Events</th><th>Chatbots</th><th>Stale after</th><th>Failed rows</th></tr></thead>
<tbody>${configs.map(
        (
          config,
        ) => html`<tr><td class="mono">${config.name}</td><td>${config.format}</td><td class="mono">${config.webhook}</td><td>${config.on.join(', ')}</td>
<td>${config.chatbots.length === 0 ? html`<span class="muted">every chatbot</span>` : config.chatbots.join(', ')}</td><td>${hours(config.staleAfterMs)}</td>
<td>${config.failedRowsPercent === undefined ? html`<span class="muted">-</span>` : `${config.failedRowsPercent}%`}</td></tr>`,
      )}</tbody></table>`
}
<h2>Last deliveries</h2>
${
  deliveries.length === 0
    ? html`<p class="muted" id="no-deliveries">Nothing delivered yet.</p>`
    : html`<table id="alert-deliveries"><thead><tr><th>Time (UTC)</th><th>Alert</th><th>Chatbot</th><th>Status</th><th>Attempt</th><th>Result</th><th>HTTP</th></tr></thead>
<tbody>${deliveries.map(
        (
          d,
        ) => html`<tr class="${d.ok ? '' : 'attention'}"><td>${formatTime(d.at)}</td><td class="mono">${d.alert}</td><td class="mono">${d.chatbot}</td><td>${d.status}</td>
<td class="num">${d.attempt}</td><td>${d.ok ? html`<span class="ok">delivered</span>` : html`<span class="bad">failed</span> <span class="muted">${d.error ?? ''}</span>`}</td>
<td class="num">${d.httpStatus ?? ''}</td></tr>`,
      )}</tbody></table>
<p class="muted small">Failed deliveries are retried with backoff; those that gave up are in the <a href="${ctx.base}/queues/queue/${encodeURIComponent(queue)}?status=failed">alerts queue</a>.</p>`
}`;
  return page(ctx, 'Alerts', body);
}
