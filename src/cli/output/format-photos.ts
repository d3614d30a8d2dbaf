/** The photos line of a replicating run's summary: hosted, reused, not fetched (by host and reason); or that photos are linked. */
import type { PhotoCounts } from '../../feed/media/photo-counts.js';
import { plural } from '../../shared/counts.js';

/** Said once per run without a media store: the chatbot shows the source's own photo URLs. */
export const LINKED_PHOTOS_LINE =
  'photos: linked, not hosted (Images are the source media URLs; --media-store with --media-base-url hosts them)';

function failuresPart(counts: PhotoCounts): string {
  const parts = Object.entries(counts.failures).flatMap(([host, reasons]) =>
    Object.entries(reasons).map(([reason, n]) => `${n ?? 0} ${reason} from ${host}`),
  );
  return parts.length === 0 ? '' : ` (${parts.join(', ')}; fetched again by the next run)`;
}

export function photosLine(counts: PhotoCounts | undefined): string {
  if (counts === undefined) return `${LINKED_PHOTOS_LINE}\n`;
  if (counts.wouldFetch !== undefined)
    return `photos: ${counts.reused} hosted already, ${plural(counts.wouldFetch, 'photo')} to fetch (dry run: nothing downloaded)\n`;
  const refreshed = counts.refreshed === 0 ? '' : `, ${plural(counts.refreshed, 'expired URL')} refreshed`;
  return (
    `photos: ${counts.hosted} hosted, ${counts.reused} reused, ${counts.notFetched} not fetched${failuresPart(counts)}, ` +
    `${plural(counts.bytes, 'byte')} downloaded${refreshed}\n`
  );
}
