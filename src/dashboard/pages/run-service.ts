/** A run page's service: which service its jobs are for, and a notice when that is not this dashboard's own. */
import { html, type SafeHtml } from '../html.js';
import type { RunPageView } from '../types.js';

/** The mark of a job or target planned for another service than this dashboard's. */
export function elsewhereMark(elsewhere: boolean): SafeHtml {
  return elsewhere ? html` <span class="badge bad elsewhere">another service</span>` : html``;
}

/** The overview's Service row: each target of the run's jobs in the queue (nothing once none is). */
export function serviceRow(view: RunPageView): SafeHtml {
  if (view.targets.length === 0) return html``;
  return html`<dt>Service</dt><dd id="run-target">${view.targets.map(
    (t, i) =>
      html`${i > 0 ? html`<br>` : ''}<span class="mono">${t.target}</span>${elsewhereMark(t.elsewhere)}${
        view.targets.length > 1 ? html` <span class="muted">(${t.jobs} of the jobs read)</span>` : ''
      }`,
  )}</dd>`;
}

/**
 * Why a notice: a worker configured like this dashboard leaves these jobs waiting, attempts
 * unused (src/queue/job-gate.ts), so the run never ends here without a worker of their service.
 */
export function elsewhereNotice(view: RunPageView): SafeHtml {
  const theirs = view.targets.filter((t) => t.elsewhere);
  if (theirs.length === 0 || view.ownTarget === undefined) return html``;
  return html`<div class="flash warn" id="elsewhere">Jobs of this run are for the service ${theirs.map((t) => html`<span class="mono">${t.target}</span>`)};
this dashboard is configured for <span class="mono">${view.ownTarget}</span>, and a worker configured so leaves them waiting (their attempts unused).
Start a worker with that service's API_BASE_URL and keys on this prefix, or retry from an installation configured for it.</div>`;
}
