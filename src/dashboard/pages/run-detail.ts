/** One run: plan, feed and remote summary, rejected rows, failed jobs and the retry action. */
import { formatDuration, formatTime, html, type SafeHtml } from '../html.js';
import { sentences } from '../html.js';
import type { FailedJobView, RunDetail, RunPageView } from '../types.js';
import { page, type PageContext } from './layout.js';
import { changesSection, wipesSection } from './run-fields.js';
import { displaySection } from './run-display.js';
import { elsewhereMark, elsewhereNotice, serviceRow } from './run-service.js';
import { feedFigures, remoteFigures, replicationCard } from './run-figures.js';
import { photosCard } from './run-photos.js';
import { guardCell, statusCell } from './runs-list.js';

/** Rows shown inline; the CSV download always holds every rejected row. */
export const REJECTED_ROWS_SHOWN = 200;

/** The feed-shape row: what the feed lost since the last run, refused or accepted with --accept-shape. */
function shapeRow(run: RunDetail): SafeHtml {
  const shape = run.summary.shape;
  if (shape === undefined) return html``;
  const what = shape.drift.map((drift) => `'${drift.column}' (${drift.fields.join(', ')}) ${drift.kind}`).join('; ');
  const verdict = shape.accepted
    ? html`<span class="warn">changed, accepted with --accept-shape</span>`
    : html`<span class="bad">changed</span>`;
  return html`<dt>Feed shape</dt><dd id="shape">${verdict} <span class="muted">${what}</span></dd>`;
}

/** The Failed figure: the listings that failed for good, and those re-queued since (running again). */
function failedFigure(run: RunDetail, requeued: RunPageView['requeued']): SafeHtml {
  const c = run.counts;
  const again =
    requeued.listings > 0 ? html` <span class="muted" id="requeued">(${requeued.listings} re-queued, running again)</span>` : '';
  return html`<dt>Failed</dt><dd class="${c.failed > 0 ? 'bad' : ''}" id="failed-count">${c.failed}${again}</dd>`;
}

/** The plan's notes as labelled figures: listings held by rejected rows, adopted listings, withheld deletes. */
function planNotes(run: RunDetail): SafeHtml {
  const notes = run.summary.planNotes;
  if (notes === undefined) return html``;
  const withheld = notes.deletesWithheld;
  return html`${notes.held === undefined ? '' : html`<dt>Held by rejected rows</dt><dd>${notes.held}</dd>`}
  ${notes.adopted === undefined ? '' : html`<dt>Adopted</dt><dd>${notes.adopted}</dd>`}
  ${withheld === undefined ? '' : html`<dt>Deletes withheld</dt><dd class="warn" id="deletes-withheld">${withheld.deletes}: ${withheld.reason}</dd>`}`;
}

function overview(view: RunPageView): SafeHtml {
  const { run, requeued } = view;
  const c = run.counts;
  return html`<div class="grid">
<div class="card" id="overview"><h2>Run</h2><dl>
  <dt>Chatbot</dt><dd class="mono">${run.chatbot}</dd>
  <dt>Status</dt><dd>${statusCell(run.status)}</dd>
  <dt>Trigger</dt><dd>${run.trigger}</dd>
  <dt>Started (UTC)</dt><dd>${formatTime(run.startedAt)}</dd>
  <dt>Duration</dt><dd>${formatDuration(run.startedAt, run.finishedAt)}</dd>
  <dt>Guard</dt><dd>${guardCell(run.guard)}${run.guard.reasons.length > 0 ? html` <span class="muted">${sentences(run.guard.reasons)}</span>` : ''}</dd>
  ${shapeRow(run)}
  <dt>Jobs</dt><dd>${run.jobs.finished} of ${run.jobs.total} finished, ${run.jobs.failed} failed</dd>
  ${serviceRow(view)}
</dl></div>
<div class="card" id="plan"><h2>Plan</h2><dl>
  <dt>Create</dt><dd>${run.plan.create}</dd><dt>Update</dt><dd>${run.plan.update}</dd>
  <dt>Delete</dt><dd>${run.plan.delete}</dd><dt>Unchanged</dt><dd>${run.plan.unchanged}</dd>
  ${planNotes(run)}
</dl><h2>Result</h2><dl>
  <dt>Created</dt><dd>${c.created}</dd><dt>Updated</dt><dd>${c.updated}</dd><dt>Deleted</dt><dd>${c.deleted}</dd>
  ${failedFigure(run, requeued)}<dt>Retried</dt><dd>${c.retried}</dd>
  <dt>Superseded</dt><dd>${c.superseded}</dd>
</dl></div>
<div class="card" id="feed"><h2>Feed</h2>${feedFigures(run.summary.feed)}</div>
<div class="card" id="remote"><h2>Remote</h2>${remoteFigures(run.summary.remote)}</div>
${replicationCard(run.summary.replication)}
${photosCard(run.summary)}
</div>`;
}

function rejectedSection(ctx: PageContext, run: RunDetail): SafeHtml {
  const rows = run.rejected;
  const csvHref = `${ctx.base}/runs/${encodeURIComponent(run.runId)}/rejected.csv`;
  if (rows.length === 0) return html`<h2>Rejected rows</h2><p class="muted">No rejected rows.</p>`;
  const shown = rows.slice(0, REJECTED_ROWS_SHOWN);
  return html`<h2>Rejected rows (${rows.length})</h2>
<p><a id="rejected-csv" href="${csvHref}" download>Download CSV</a>${
    rows.length > shown.length ? html` <span class="muted">(first ${shown.length} shown; the CSV has all ${rows.length})</span>` : ''
  }</p>
<table id="rejected"><thead><tr><th>Line</th><th>Key</th><th>Field</th><th>Value</th><th>Reason</th></tr></thead>
<tbody>${shown.map((row) => html`<tr><td class="num">${row.line}</td><td class="mono">${row.key ?? ''}</td><td>${row.field}</td><td class="mono">${row.value}</td><td>${row.reason}</td></tr>`)}</tbody></table>`;
}

function retryForm(ctx: PageContext, run: RunDetail, failedCount: number): SafeHtml {
  if (ctx.readOnly || failedCount === 0) return html``;
  return html`<form method="post" action="${ctx.base}/runs/${encodeURIComponent(run.runId)}/retry" class="inline">
<input type="hidden" name="csrf" value="${ctx.csrfToken}">
<button type="submit" id="retry-all">Retry all failed jobs</button>
</form>`;
}

/** The per-job retry: the run's retry form with the one job's id. */
function retryOneCell(ctx: PageContext, run: RunDetail, job: FailedJobView): SafeHtml {
  if (ctx.readOnly) return html``;
  return html`<td><form method="post" action="${ctx.base}/runs/${encodeURIComponent(run.runId)}/retry" class="inline">
<input type="hidden" name="csrf" value="${ctx.csrfToken}"><input type="hidden" name="job" value="${job.jobId}">
<button type="submit" class="retry-one">Retry</button></form></td>`;
}

function failedSection(ctx: PageContext, run: RunDetail, failed: readonly FailedJobView[], requeued: RunPageView['requeued']): SafeHtml {
  const again = requeued.jobs > 0 ? ` ${requeued.jobs} job(s) retried are waiting or running again.` : '';
  if (failed.length === 0) return html`<h2>Failed jobs</h2><p class="muted" id="no-failed">No failed jobs.${again}</p>`;
  return html`<h2>Failed jobs (${failed.length})</h2>
<p>${retryForm(ctx, run, failed.length)}</p>
<table id="failed"><thead><tr><th>Key</th><th>Address</th><th>City</th><th>Kind</th><th>Attempts</th><th>Code</th><th>Message</th><th>Service</th><th>Job</th>${ctx.readOnly ? '' : html`<th></th>`}</tr></thead>
<tbody>${failed.map(
    (
      job,
    ) => html`<tr><td class="mono">${job.key}</td><td>${job.address}</td><td>${job.city}</td><td>${job.kind}</td><td class="num">${job.attempts}</td>
<td class="mono">${job.code === undefined ? '' : String(job.code)}</td><td>${job.message}</td><td><span class="mono">${job.target}</span>${elsewhereMark(job.elsewhere)}</td><td class="mono">${job.jobId}</td>${retryOneCell(ctx, run, job)}</tr>`,
  )}</tbody></table>`;
}

/** Statuses of a run whose jobs are still being worked on. */
const IN_PROGRESS: ReadonlySet<string> = new Set(['enqueuing', 'running']);
/** How often a run in progress reloads its page. */
export const PROGRESS_REFRESH_SECONDS = 3;

/** The live progress bar of a run with unfinished jobs (the page reloads itself while it shows). */
function progressBar(run: RunDetail): SafeHtml {
  const { total, finished } = run.jobs;
  const percent = total === 0 ? 0 : Math.floor((finished / total) * 100);
  return html`<div class="card" id="progress"><strong>In progress:</strong> <progress max="${Math.max(total, 1)}" value="${finished}">${percent}%</progress>
 ${finished} of ${total} jobs finished (${percent}%), ${run.jobs.failed} failed. <span class="muted">This page reloads every ${PROGRESS_REFRESH_SECONDS} s.</span></div>`;
}

/** `view` holds the run and its failed jobs as read together (the counts agree with the list). */
export function runDetailPage(ctx: PageContext, view: RunPageView, flash: string | undefined): string {
  const { run, failed, requeued } = view;
  // Why re-queued jobs make the page live: after a retry it follows them until they finish again.
  const live = (IN_PROGRESS.has(run.status) || requeued.jobs > 0) && run.jobs.finished < Math.max(run.jobs.total, 1);
  const body = html`${flash ? html`<div class="flash" id="flash">${flash}</div>` : ''}
<h1>Run <span class="mono">${run.runId}</span></h1>
${view.noWorker === undefined ? '' : html`<div class="flash warn" id="no-worker">${view.noWorker}. Or start this dashboard with --work: it then runs them itself.</div>`}
${elsewhereNotice(view)}
${live ? progressBar(run) : ''}
${overview(view)}
${wipesSection(run)}
${displaySection(run)}
${changesSection(run)}
${failedSection(ctx, run, failed, requeued)}
${rejectedSection(ctx, run)}`;
  return page(ctx, `Run ${run.runId}`, body, live ? PROGRESS_REFRESH_SECONDS : undefined);
}
