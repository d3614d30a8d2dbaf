/**
 * The pages of one OData query, in order. The server's `@odata.nextLink` is followed while it
 * gives one (same origin only: the bearer token goes nowhere else). Without it the client pages
 * itself with `$top`/`$skip`:
 * - a page shorter than asked while more exist means the server caps `$top` silently: the next
 *   pages ask for the size it served, and `$skip` moves by what was received, never by what was
 *   asked (else the records between the two would be skipped);
 * - `@odata.count` of the first answer (`$count=true`) says when everything was received; a
 *   server without it is read until an empty page.
 * Resuming by timestamp (`byTimestamp`): the next page asks `ModificationTimestamp ge <last stamp
 * received>` and skips only the records already received at that stamp. Why: a record changed
 * during the pull moves to the end of the order; with `$skip` counted from the start every later
 * record would shift one place and one would never be read, while with the stamp cursor only a
 * change among records sharing the boundary stamp can shift anything. Same requests, same pages.
 */
import { z } from 'zod';
import type { Logger } from '../../runtime/logger.js';
import { feedUnreadable } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { allOf, odataUrl, type ODataQuery } from './odata-url.js';
import { sinceFilter, TIMESTAMP_FIELD } from './replication-query.js';
import { compareStamps, parseStamp, type Stamp } from './timestamps.js';
import type { ResoRecord } from './types.js';

/** Where pages come from (a FeedClient). */
export interface JsonSource {
  getJson(url: string): Promise<unknown>;
}

export interface PagerOptions {
  resourceUrl: string;
  /** The first request's query; `top` is the page size asked. */
  query: ODataQuery & { top: number };
  /** Resume by the last ModificationTimestamp received (see above); the query must be ordered by it. */
  byTimestamp: boolean;
  logger?: Logger;
}

/** What the pager has seen so far. */
export interface PagerProgress {
  received: number;
  /** `$top` in use: as asked, or the smaller size the server was seen to serve. */
  pageSize: number;
  /** How pages after the first were asked for; undefined while there was only one. */
  pagedBy: 'nextLink' | 'skip' | undefined;
}

const pageSchema = z.object({
  // Why not z.record: it copies every record, and a full replication parses hundreds of thousands.
  value: z.array(z.custom<ResoRecord>((item) => typeof item === 'object' && item !== null && !Array.isArray(item))),
  '@odata.nextLink': z.string().min(1).optional(),
  '@odata.count': z.number().int().nonnegative().optional(),
});
type Page = z.infer<typeof pageSchema>;

/** The last stamp received and how many records carried it. */
interface Cursor {
  stamp: Stamp;
  atStamp: number;
}

function parsePage(body: unknown, where: string): Page {
  const parsed = pageSchema.safeParse(body);
  if (!parsed.success)
    throw feedUnreadable(
      'an answer is not an OData collection ({ "value": [records] })',
      where,
      'Check that the URL names an OData resource.',
    );
  return parsed.data;
}

/** The cursor after `rows`; refuses rows out of ModificationTimestamp order, which would make the cursor (and the watermark) unsafe. */
function advance(cursor: Cursor | undefined, rows: readonly ResoRecord[], where: string): Cursor | undefined {
  let at = cursor;
  for (const row of rows) {
    const stamp = parseStamp(row[TIMESTAMP_FIELD]);
    if (stamp === undefined)
      throw feedUnreadable(`a record has no ${TIMESTAMP_FIELD} with an offset`, where, `Check that the server sends ${TIMESTAMP_FIELD}.`);
    const order = at === undefined ? 1 : compareStamps(stamp, at.stamp);
    if (order < 0)
      throw feedUnreadable(`records are not in ${TIMESTAMP_FIELD} order`, where, `The server must honour $orderby=${TIMESTAMP_FIELD}.`);
    at = order === 0 && at !== undefined ? { stamp: at.stamp, atStamp: at.atStamp + 1 } : { stamp, atStamp: 1 };
  }
  return at;
}

function sameOrigin(link: string, current: string, origin: string, where: string): string {
  let url: URL | undefined;
  try {
    url = new URL(link, current);
  } catch {
    url = undefined;
  }
  if (url?.origin !== origin)
    throw feedUnreadable('its @odata.nextLink leads to another server', where, "The feed token is sent to the feed URL's own origin only.");
  return url.href;
}

/** Yields each non-empty page's records; `progress` is updated as pages arrive. */
export async function* odataPages(source: JsonSource, options: PagerOptions, progress: PagerProgress): AsyncGenerator<ResoRecord[]> {
  const { resourceUrl, query } = options;
  const where = displaySource(resourceUrl);
  const origin = new URL(resourceUrl).origin;
  progress.pageSize = query.top;
  let url = odataUrl(resourceUrl, query);
  let count: number | undefined;
  let cursor: Cursor | undefined;
  for (;;) {
    const page = parsePage(await source.getJson(url), where);
    const rows = page.value;
    count ??= page['@odata.count'];
    if (options.byTimestamp) cursor = advance(cursor, rows, where);
    progress.received += rows.length;
    if (rows.length > 0) yield rows;
    const nextLink = page['@odata.nextLink'];
    if (nextLink !== undefined) {
      progress.pagedBy = 'nextLink';
      url = sameOrigin(nextLink, url, origin, where);
      continue;
    }
    // No nextLink: the end, if the server pages by nextLink, if it sent nothing, or if the count is reached.
    if (progress.pagedBy === 'nextLink' || rows.length === 0 || (count !== undefined && progress.received >= count)) return;
    if (rows.length < progress.pageSize) {
      // Why a short page after the first is the end: the server already served pages of this size,
      // so a shorter one has run out (asking again would cost a request for an empty page). Only a
      // short first page is ambiguous: a silent $top cap and the end look the same there.
      if (progress.pagedBy === 'skip') return;
      options.logger?.info(
        { where, asked: progress.pageSize, served: rows.length },
        'feed server serves smaller pages than asked; asking for its size',
      );
      progress.pageSize = rows.length;
    }
    progress.pagedBy = 'skip';
    const next: ODataQuery = { ...query, top: progress.pageSize, count: false, skip: progress.received };
    if (cursor !== undefined) {
      next.filter = allOf(query.filter, sinceFilter(cursor.stamp));
      next.skip = cursor.atStamp;
    }
    url = odataUrl(resourceUrl, next);
  }
}
