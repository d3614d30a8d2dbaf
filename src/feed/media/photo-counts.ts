/** What hosting a run's photos did: the figures the run summary, `--json` and the dashboard show. */
import type { PhotoFailureReason } from './photo-download.js';

export interface PhotoCounts {
  /** Photos downloaded and stored by this run. */
  hosted: number;
  /** Photos already hosted by an earlier run (or another chatbot of the source): no download. */
  reused: number;
  /** Photos left out of their listing this run (fetched again by the next run). */
  notFetched: number;
  /** Download bytes received (counted against the feed's media byte budget). */
  bytes: number;
  /** Signed URLs found expired and read again from the record's Media. */
  refreshed: number;
  /** A dry run: photos not hosted yet, which a real run would download (absent on a real run). */
  wouldFetch?: number;
  /** Photos not fetched, by source host and reason. */
  failures: Record<string, Partial<Record<PhotoFailureReason, number>>>;
}

export function emptyPhotoCounts(dryRun = false): PhotoCounts {
  return { hosted: 0, reused: 0, notFetched: 0, bytes: 0, refreshed: 0, ...(dryRun ? { wouldFetch: 0 } : {}), failures: {} };
}

/** Counts one photo not fetched from `host` for `reason`. */
export function countFailure(counts: PhotoCounts, host: string, reason: PhotoFailureReason): void {
  counts.notFetched += 1;
  const byReason = (counts.failures[host] ??= {});
  byReason[reason] = (byReason[reason] ?? 0) + 1;
}
