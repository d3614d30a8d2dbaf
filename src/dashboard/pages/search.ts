/** Search by listing key (MLS number or URL): every run and job that touched it. */
import { formatTime, html } from '../html.js';
import type { KeyTouchView } from '../types.js';
import { page, type PageContext } from './layout.js';

export function searchPage(ctx: PageContext, key: string | undefined, touches: readonly KeyTouchView[]): string {
  const form = html`<form method="get" action="${ctx.base}/search">
<input type="search" name="key" value="${key ?? ''}" placeholder="MLS number or listing URL" aria-label="Listing key">
<button type="submit">Search</button>
</form>`;
  let results = html``;
  if (key !== undefined && key !== '') {
    const runs = new Set(touches.map((touch) => touch.runId));
    results =
      touches.length === 0
        ? html`<p class="muted" id="no-results">No run touched <span class="mono">${key}</span>.</p>`
        : html`<p>${touches.length} job(s) in ${runs.size} run(s) touched <span class="mono">${key}</span>.</p>
<table id="touches"><thead><tr><th>When (UTC)</th><th>Run</th><th>Chatbot</th><th>Kind</th><th>State</th><th>Job</th></tr></thead>
<tbody>${touches.map(
            (touch) => html`<tr><td>${formatTime(touch.at)}</td>
<td><a class="mono" href="${ctx.base}/runs/${encodeURIComponent(touch.runId)}">${touch.runId}</a></td>
<td class="mono">${touch.chatbot}</td><td>${touch.kind}</td><td>${touch.state}</td><td class="mono">${touch.jobId}</td></tr>`,
          )}</tbody></table>`;
  }
  return page(ctx, 'Search by key', html`<h1>Search by listing key</h1>${form}${results}`);
}
