/**
 * The lines the demo's replication act prints: what each pull received and did, in words a
 * newcomer follows, then the `sources show` block. Pure; no credential is ever passed in.
 */
import type { FeedBudgetUsage } from '../../store/feed-budget.js';
import type { FeedSource } from '../../store/feed-sources.js';
import type { SyncResult } from '../../store/run-summary.js';
import type { ReplicationOutcome } from '../../sync/replication.js';
import { sourceBlock } from './format-sources.js';
import { count, plural } from '../../shared/counts.js';

/** One pull of the act, as the demo saw it end. */
export interface DemoPull {
  replication: ReplicationOutcome;
  result: SyncResult;
}

/** The first pull: everything the MLS holds. */
export function firstPullLine(pull: DemoPull, chatbot: string): string {
  const { replication, result } = pull;
  return (
    `replication  first run: ${plural(replication.recordsPulled, 'record')} pulled (everything, ` +
    `${plural(replication.requests, 'request')}), ${plural(result.created, 'listing')} created on ${chatbot}\n`
  );
}

/** The incremental pull: only what changed, updates, and the delete of the withdrawn record. */
export function nextPullLine(pull: DemoPull, mlsRecords: number): string {
  const { replication, result } = pull;
  const skipped = mlsRecords - replication.recordsPulled;
  return [
    `replication  next run: ${plural(replication.recordsPulled, 'record')} pulled, only the changed ones ` +
      `(${count(skipped)} unchanged not fetched), `,
    `${count(result.updated)} updated, ${count(result.deleted)} deleted because Withdrawn\n`,
  ].join('');
}

/** What a pull did with the photos: hosted (downloaded into the demo's store), reused, not fetched, and where Images point. */
export function photosPullLine(pull: DemoPull, baseUrl: string): string {
  const photos = pull.replication.photos;
  if (photos === undefined) return '';
  const missing = photos.notFetched === 0 ? '' : ` (${plural(photos.notFetched, 'photo')} not fetched: the next run fetches them)`;
  return (
    `replication  photos: ${count(photos.hosted)} hosted, ${count(photos.reused)} reused${missing}, ` +
    `${plural(photos.bytes, 'byte')} downloaded; Images are ${baseUrl}/<sha256>.jpg\n`
  );
}

/** Where the next run starts. */
export function watermarkLine(watermark: string | undefined, overlap: string): string {
  return `replication  watermark ${watermark ?? '-'}: the next run asks for ModificationTimestamp ge the watermark minus ${overlap}\n`;
}

/** `sources show` as the command prints it, after the command line itself. */
export function sourcesShowLines(command: string, source: FeedSource, usage: FeedBudgetUsage | undefined): string {
  return `\n$ ${command}\n${sourceBlock(source, usage)}`;
}
