/** A run page's per-field sections: the fields its plan empties on held values (the wipe guard), and what it changes per field. */
import { showSample } from '../../domain/field-changes.js';
import { html, type SafeHtml } from '../html.js';
import type { RunDetail } from '../types.js';

type Samples = NonNullable<RunDetail['summary']['changes']>[number]['samples'];

const examples = (samples: Samples): string => samples.map(showSample).join('; ');

const VERDICT = {
  refused: html`<span class="bad">refused</span>`,
  allowed: html`<span class="warn">allowed (--allow-wipe)</span>`,
  within: html`<span class="ok">within --max-wipes</span>`,
} as const;

/** Every field the plan would empty on listings that hold it, with the guard's verdict; nothing when there is none. */
export function wipesSection(run: RunDetail): SafeHtml {
  const wipes = run.summary.wipes;
  if (wipes === undefined || wipes.fields.length === 0) return html``;
  const allowed = wipes.allowWipe.length > 0 ? html` · --allow-wipe ${wipes.allowWipe.join(', ')}` : '';
  return html`<h2>Fields emptied (${wipes.fields.length})</h2>
<p class="muted">--max-wipes ${wipes.maxWipes}${allowed}${run.guard.forced ? ' · forced' : ''}</p>
<table id="wipes"><thead><tr><th>Field</th><th>Emptied</th><th>Listings holding it</th><th>Verdict</th><th>Examples (key, before → after)</th></tr></thead>
<tbody>${wipes.fields.map(
    (wipe) =>
      html`<tr><td>${wipe.field}</td><td class="num">${wipe.count}</td><td class="num">${wipe.holders}</td><td>${VERDICT[wipe.verdict]}</td><td class="mono">${examples(wipe.samples)}</td></tr>`,
  )}</tbody></table>`;
}

/** How many listings the plan changes per field, with samples; nothing for a run recorded before it was counted. */
export function changesSection(run: RunDetail): SafeHtml {
  const changes = run.summary.changes;
  if (changes === undefined) return html``;
  if (changes.length === 0) {
    // Why the creates: this section counts changes to listings the chatbot holds, and "no changes"
    // on a run that created many reads as a run that did nothing.
    const created = run.plan.create > 0 ? ` ${run.plan.create} listing${run.plan.create === 1 ? '' : 's'} created.` : '';
    return html`<h2>Changes by field</h2><p class="muted" id="no-changes">No field of an existing listing changes.${created}</p>`;
  }
  return html`<h2>Changes by field</h2>
<table id="changes"><thead><tr><th>Field</th><th>Listings</th><th>Examples (key, before → after)</th></tr></thead>
<tbody>${changes.map((change) => html`<tr><td>${change.field}</td><td class="num">${change.count}</td><td class="mono">${examples(change.samples)}</td></tr>`)}</tbody></table>`;
}
