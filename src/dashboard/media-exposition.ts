/**
 * The photo download families of /metrics, written as Prometheus text from the totals every hosting
 * process flushes to Redis (src/store/media-metrics.ts): `listing_sync_photo_downloads_total`,
 * `listing_sync_photo_download_bytes_total` and `listing_sync_photo_download_failures_total{reason}`.
 * Why text and not prom-client counters: the totals are every process's, read on each scrape, and
 * a prom-client counter can only be incremented by this one.
 */
import type { MediaMetricsView } from './types.js';

/** Every reason a download can fail (photo-download.ts): each is written, 0 when none, so a rate() alert sees the series from the start. */
const REASONS = [
  'timeout',
  'connection',
  'rate-limited',
  'server-error',
  'expired',
  'refused',
  'not-an-image',
  'too-large',
  'store-failed',
];

function counter(name: string, help: string): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} counter`];
}

/** The three families (HELP/TYPE lines, and zeros, even when nothing was downloaded; no samples when Redis did not answer). */
export function renderMediaMetrics(view: MediaMetricsView | undefined): string {
  const lines = counter('listing_sync_photo_downloads_total', 'Photos downloaded and stored in the media store, from every process');
  if (view !== undefined) lines.push(`listing_sync_photo_downloads_total ${view.downloads}`);
  lines.push(
    ...counter(
      'listing_sync_photo_download_bytes_total',
      "Bytes received by photo downloads (failed ones included: what the feed's media byte budget counts), from every process",
    ),
  );
  if (view !== undefined) lines.push(`listing_sync_photo_download_bytes_total ${view.bytes}`);
  lines.push(
    ...counter(
      'listing_sync_photo_download_failures_total',
      'Photo downloads that failed, by reason (the photo is fetched again by the next run; an expired one is refreshed first)',
    ),
  );
  if (view !== undefined) {
    const reasons = [...new Set([...REASONS, ...Object.keys(view.failures)])].sort();
    for (const reason of reasons)
      lines.push(`listing_sync_photo_download_failures_total{reason="${reason}"} ${view.failures[reason] ?? 0}`);
  }
  return `${lines.join('\n')}\n`;
}
