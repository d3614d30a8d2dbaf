/** A run page's display-rules section: per field the listings that had it withheld and why, and the records not published and why. */
import { showSample } from '../../domain/field-changes.js';
import { html, type SafeHtml } from '../html.js';
import type { RunDetail } from '../types.js';

/** Nothing for a run recorded before the display rules, or one they did not touch. */
export function displaySection(run: RunDetail): SafeHtml {
  const display = run.summary.display;
  if (display === undefined) return html``;
  const withheld = Object.entries(display.withheld).flatMap(([field, byWhy]) =>
    Object.entries(byWhy).map(([why, count]) => ({ field, why, count })),
  );
  const hidden = Object.entries(display.notPublished);
  if (withheld.length === 0 && hidden.length === 0 && display.blanked.length === 0 && (display.coming ?? []).length === 0) return html``;
  const attribution =
    display.unattributed > 0
      ? html`${display.attributed} listings attributed, <span class="warn">${display.unattributed} without</span> (a field the template names was missing)`
      : html`${display.attributed} listings attributed`;
  return html`<h2>Display rules</h2>
<p class="muted" id="display-attribution">${attribution}${(display.coming ?? []).map((rule) => html` · coming ${rule}`)}</p>
<table id="display-withheld"><thead><tr><th>Field</th><th>Listings</th><th>Why (rule)</th></tr></thead>
<tbody>${withheld.map((row) => html`<tr><td>${row.field}</td><td class="num">${row.count}</td><td>${row.why}</td></tr>`)}
${display.blanked.map(
  (blank) =>
    html`<tr><td>${blank.field}</td><td class="num">${blank.count}</td><td>blanked on held listings by the records' flags (not a wipe): <span class="mono">${blank.samples.map(showSample).join('; ')}</span></td></tr>`,
)}</tbody></table>
<table id="display-not-published"><thead><tr><th>Not published</th><th>Listings</th></tr></thead>
<tbody>${hidden.map(([reason, count]) => html`<tr><td>${reason}</td><td class="num">${count}</td></tr>`)}</tbody></table>`;
}
