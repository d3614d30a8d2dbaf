/**
 * The records of one OData query, in order, read until the server's own count says they all
 * arrived. Why not `$top`/`$skip`: in OData `$top` is a total across nextLinks, not a page size,
 * and servers differ in what they do with `$skip` (one answers `$top=T&$skip=S` with T − S
 * records and no nextLink); a client that pages by them stops short and cannot tell.
 * - The page size is asked with `Prefer: odata.maxpagesize=N`; the server may serve less.
 * - Pages are followed by `@odata.nextLink` while the server gives one (same origin only: the
 *   bearer token goes nowhere else).
 * - When the links end, `@odata.count` (asked with `$count=true` on every chain) says whether
 *   every counted record arrived. If not, a new chain starts after the last record received, by
 *   key: `(T gt t) or (T eq t and K gt k)` in (T, K) order. A record changed during the pull moves
 *   ahead of the cursor and is read again later; none can drop out.
 * - A chain that receives nothing while the server counts records for it means the server will
 *   not serve them: the pull ends incomplete, and `expected` says how many it counted. Without any
 *   count, the pull ends at the first chain that receives nothing.
 */
import { z } from 'zod';
import type { Logger } from '../../runtime/logger.js';
import { feedUnreadable } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { allOf, odataString, odataUrl, type ODataQuery } from './odata-url.js';
import { compareStamps, parseStamp, stampLiteral, type Stamp } from './timestamps.js';
import type { ResoRecord } from './types.js';

/** Where pages come from (a FeedClient); `maxPageSize` is sent as `Prefer: odata.maxpagesize`. */
export interface JsonSource {
  getJson(url: string, request?: { maxPageSize?: number }): Promise<unknown>;
}

/** The order the records come in, and so how a chain continues after the last one received. */
export interface RecordOrder {
  /** A DateTimeOffset field ordered first (ModificationTimestamp); absent: by key alone. */
  timestampField?: string;
  /** The resource's key (ListingKey, MediaKey), ordered last: it makes the order total. */
  keyField: string;
}

export interface PagerOptions {
  resourceUrl: string;
  /** What the pull asks for; its order, page size and count are the pager's. */
  query: Pick<ODataQuery, 'filter' | 'select' | 'expand'>;
  order: RecordOrder;
  /** Asked with Prefer: odata.maxpagesize. */
  pageSize: number;
  logger?: Logger;
}

/** What the pager has seen so far. */
export interface PagerProgress {
  received: number;
  /** Records the server counted for the pull (what arrived before the last chain plus that chain's count); undefined without a count. */
  expected: number | undefined;
  /** True once the server's count (or an empty continuation, without one) said every record arrived. */
  complete: boolean;
  /** How pages after the first were reached; undefined while there was only one. */
  pagedBy: 'nextLink' | 'key' | undefined;
}

export const newProgress = (): PagerProgress => ({ received: 0, expected: undefined, complete: false, pagedBy: undefined });

const pageSchema = z.object({
  // Why not z.record: it copies every record, and a full replication parses hundreds of thousands.
  value: z.array(z.custom<ResoRecord>((item) => typeof item === 'object' && item !== null && !Array.isArray(item))),
  '@odata.nextLink': z.string().min(1).optional(),
  '@odata.count': z.number().int().nonnegative().optional(),
});
type Page = z.infer<typeof pageSchema>;

/** The last record received: where the next chain starts. */
interface Cursor {
  stamp?: Stamp;
  /** A number for an Int64 key (EntityEventSequence): continued unquoted, as OData writes an integer literal. */
  key: string | number;
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

/** The cursor after `rows`; refuses rows out of timestamp order or without a key: the cursor (and the watermark) would be unsafe. */
function advance(cursor: Cursor | undefined, rows: readonly ResoRecord[], order: RecordOrder, where: string): Cursor | undefined {
  let at = cursor;
  for (const row of rows) {
    const key = row[order.keyField];
    if (typeof key !== 'string' && typeof key !== 'number')
      throw feedUnreadable(`a record has no ${order.keyField}`, where, `Check that the server sends ${order.keyField}.`);
    if (order.timestampField === undefined) {
      at = { key };
      continue;
    }
    const stamp = parseStamp(row[order.timestampField]);
    if (stamp === undefined)
      throw feedUnreadable(
        `a record has no ${order.timestampField} with an offset`,
        where,
        `Check that the server sends ${order.timestampField}.`,
      );
    if (at?.stamp !== undefined && compareStamps(stamp, at.stamp) < 0)
      throw feedUnreadable(
        `records are not in ${order.timestampField} order`,
        where,
        `The server must honour $orderby=${order.timestampField},${order.keyField}.`,
      );
    at = { stamp, key: String(key) };
  }
  return at;
}

/** The records after `cursor` in (timestamp, key) order. */
export function afterCursor(order: RecordOrder, cursor: Cursor): string {
  const key = `${order.keyField} gt ${typeof cursor.key === 'number' ? String(cursor.key) : odataString(cursor.key)}`;
  if (order.timestampField === undefined || cursor.stamp === undefined) return key;
  const field = order.timestampField;
  const stamp = stampLiteral(cursor.stamp);
  return `(${field} gt ${stamp}) or (${field} eq ${stamp} and ${key})`;
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

const sameCursor = (a: Cursor | undefined, b: Cursor | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  a.key === b.key &&
  (a.stamp === b.stamp || (a.stamp !== undefined && b.stamp !== undefined && compareStamps(a.stamp, b.stamp) === 0));

/** Yields each non-empty page's records; `progress` is updated as pages arrive. */
export async function* keyedPages(source: JsonSource, options: PagerOptions, progress: PagerProgress): AsyncGenerator<ResoRecord[]> {
  const { resourceUrl, query, order } = options;
  const where = displaySource(resourceUrl);
  const origin = new URL(resourceUrl).origin;
  const orderBy = order.timestampField === undefined ? order.keyField : `${order.timestampField},${order.keyField}`;
  let cursor: Cursor | undefined;
  for (let chain = 0; ; chain += 1) {
    const before = progress.received;
    const filter = cursor === undefined ? query.filter : allOf(query.filter, afterCursor(order, cursor));
    let url = odataUrl(resourceUrl, { ...query, ...(filter === undefined ? {} : { filter }), orderBy, count: true });
    let count: number | undefined;
    const chainStart = cursor;
    for (;;) {
      const page = parsePage(await source.getJson(url, { maxPageSize: options.pageSize }), where);
      count ??= page['@odata.count'];
      cursor = advance(cursor, page.value, order, where);
      progress.received += page.value.length;
      if (page.value.length > 0) yield page.value;
      const nextLink = page['@odata.nextLink'];
      if (nextLink === undefined) break;
      progress.pagedBy = 'nextLink';
      url = sameOrigin(nextLink, url, origin, where);
    }
    const got = progress.received - before;
    if (count !== undefined) progress.expected = before + count;
    if (count !== undefined ? got >= count : got === 0) {
      progress.complete = true;
      return;
    }
    if (got === 0 || sameCursor(cursor, chainStart)) {
      options.logger?.info(
        { where, received: progress.received, expected: progress.expected },
        'feed server stopped serving records it counted',
      );
      return;
    }
    if (chain === 0) options.logger?.info({ where, received: got, counted: count }, 'feed server ended its links early; continuing by key');
    progress.pagedBy = 'key';
  }
}
