/**
 * A hosting run's photos as a card of the run page: hosted, reused and not fetched, and the photos
 * not fetched by host and reason, each with what happens next and what to check. Read from the
 * stored summary's `replication.photos` (src/feed/media/photo-counts.ts), validated here: an older
 * or newer record with another shape shows nothing rather than JSON.
 */
import { z } from 'zod';
import { html, type SafeHtml } from '../html.js';
import { plural } from '../../shared/counts.js';
import { formatBytes } from './run-figures.js';

const countsSchema = z.object({
  hosted: z.number(),
  reused: z.number(),
  notFetched: z.number(),
  bytes: z.number().optional(),
  refreshed: z.number().optional(),
  failures: z.record(z.string(), z.record(z.string(), z.number())).optional(),
});

type PhotoCountsView = z.infer<typeof countsSchema>;

const NEXT = 'fetched again by the next run';

/** What each reason means and what to do (photo-download.ts names the reasons). */
const REASONS: Readonly<Record<string, string>> = {
  timeout: `the host did not answer within --media-timeout; ${NEXT} (raise --media-timeout for a slow host)`,
  connection: `the connection failed or was dropped; ${NEXT}`,
  'rate-limited': `the host answered 429 and asked to wait longer than a run waits; ${NEXT}`,
  'server-error': `the host answered 5xx after every retry; ${NEXT}`,
  expired: `the signed URL had expired and the Media read again gave none that worked; ${NEXT}`,
  refused: `the host refused the download (4xx); check --media-user-agent (MLS Grid wants the access token: token); ${NEXT}`,
  'not-an-image': `the URL answered something other than an image; tried again by the next run (tell the provider if it stays so)`,
  'too-large': `the photo is larger than the 50 MB cap; tried again by the next run (tell the provider if it stays so)`,
  'store-failed': `the media store refused the write; check --media-store (disk space, bucket permissions); ${NEXT}`,
  budget: `the feed's media byte window (--feed-budget, e.g. mls-grid's 4 GB/h) was used up, so it was not asked for; ${NEXT}`,
};

const n = (value: number): string => value.toLocaleString('en-US');

function failureRows(counts: PhotoCountsView): SafeHtml {
  const rows = Object.entries(counts.failures ?? {})
    .flatMap(([host, byReason]) => Object.entries(byReason).map(([reason, photos]) => ({ host, reason, photos })))
    .filter((row) => row.photos > 0)
    .sort((a, b) => b.photos - a.photos || a.host.localeCompare(b.host) || a.reason.localeCompare(b.reason));
  if (rows.length === 0) return html``;
  return html`<h2>Not fetched, by host and reason</h2>
<table id="photos-not-fetched"><thead><tr><th>Host</th><th>Reason</th><th>Photos</th><th>What next</th></tr></thead>
<tbody>${rows.map(
    (row) =>
      html`<tr><td class="mono">${row.host}</td><td>${row.reason}</td><td class="num">${n(row.photos)}</td>
<td>${REASONS[row.reason] ?? NEXT}</td></tr>`,
  )}</tbody></table>`;
}

function notFetchedText(counts: PhotoCountsView): string {
  if (counts.notFetched === 0) return '0';
  const one = counts.notFetched === 1;
  const rest = one ? `its listing shows the others; it is ${NEXT}` : `their listings show the others; they are ${NEXT}`;
  return `${plural(counts.notFetched, 'photo')}: ${rest}`;
}

/**
 * The photos card of a run that hosted photos; nothing for a run without a media store. A
 * replicating run keeps its counts in `replication.photos`, a file feed's run in `photos`.
 */
export function photosCard(summary: { replication?: Readonly<Record<string, unknown>> | undefined; photos?: unknown }): SafeHtml {
  const parsed = countsSchema.safeParse(summary.replication?.['photos'] ?? summary.photos);
  if (!parsed.success) return html``;
  const counts = parsed.data;
  const refreshed = counts.refreshed ?? 0;
  return html`<div class="card" id="photos"><h2>Photos</h2><dl>
  <dt>Hosted</dt><dd data-field="hosted">${n(counts.hosted)} downloaded and stored by this run</dd>
  <dt>Reused</dt><dd data-field="reused">${n(counts.reused)} hosted already (no download)</dd>
  <dt>Not fetched</dt><dd data-field="notFetched" class="${counts.notFetched > 0 ? 'warn' : ''}">${notFetchedText(counts)}</dd>
  <dt>Downloaded</dt><dd data-field="bytes">${formatBytes(counts.bytes ?? 0)}</dd>
  ${refreshed > 0 ? html`<dt>Expired URLs refreshed</dt><dd data-field="refreshed">${n(refreshed)}</dd>` : html``}
</dl>${failureRows(counts)}</div>`;
}
