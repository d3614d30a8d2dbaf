/** Feed-test helpers: a fixture's path, and a feed read to the end as a user of openFeed would. */
import { join } from 'node:path';
import { openFeed, type FeedOptions, type FeedRow, type FeedStats } from '../../src/feed/open-feed.js';

export const fixture = (name: string): string => join(import.meta.dirname, '../../fixtures/feeds', name);

/** Opens and reads a whole feed (MLSNumber keys unless told otherwise). */
export async function readFeedWith(
  profile: FeedOptions['profile'],
  options: Partial<FeedOptions> & { source: string },
): Promise<{ rows: FeedRow[]; stats: FeedStats; progress: { bytes: number; totalBytes?: number } }> {
  const feed = await openFeed({ profile, keyType: 'MLSNumber', ...options });
  const rows: FeedRow[] = [];
  for await (const row of feed.rows) rows.push(row);
  return { rows, stats: feed.stats(), progress: feed.progress() };
}
