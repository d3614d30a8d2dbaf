/**
 * Which records of a matched, ordered collection one response carries, and whether it links to
 * more. Pure. The default is OData's own meaning (OData 4.01 Part 1 §11.2.6.7, Part 2 §5.1.10):
 * - `$skip` and `$top` cut the ANSWER: records [skip, skip + top) of the ordered collection;
 *   `$top` is a total across every nextLink, never a page size;
 * - the server pages that answer itself (server-driven paging): at most its page size per
 *   response, the rest behind `@odata.nextLink`, whose `$skiptoken` is the server's own cursor;
 * - `Prefer: odata.maxpagesize=N` asks a smaller page; an honoured preference is echoed back in
 *   `Preference-Applied`.
 * The modes model servers found in the field (see ResoConfig): `$top` as a page size, the
 * `$top`/`$skip` bug, no nextLinks at all, nextLinks dropped early, and records beyond a cut that
 * the server counts but never serves.
 */
import type { ODataQuery } from './odata-query.js';
import type { ResoConfig } from './types.js';

export interface PageWindow {
  /** Index of the first record served in the matched collection. */
  start: number;
  /** Index after the last record served. */
  end: number;
  /** Set when the response carries a nextLink: the query options it changes. */
  next?: { skip?: number; skipToken?: number };
  /** The page size taken from `Prefer: odata.maxpagesize`, to echo in Preference-Applied. */
  preferenceApplied?: number;
}

/** `odata.maxpagesize=N` of a Prefer header, or undefined. */
export function preferredPageSize(prefer: string | string[] | undefined): number | undefined {
  const text = Array.isArray(prefer) ? prefer.join(',') : prefer;
  const match = /(?:^|[,;\s])odata\.maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(text ?? '');
  const size = match === null ? undefined : Number(match[1]);
  return size !== undefined && size > 0 ? size : undefined;
}

/** The server's page size for this request, and whether the preference set it. */
function serverPageSize(config: ResoConfig, preferred: number | undefined): { size: number; applied?: number } {
  const own = Math.min(config.defaultTop ?? config.maxTop, config.maxTop);
  if (preferred === undefined || config.honourMaxPageSize === false) return { size: own };
  const size = Math.min(preferred, config.maxTop);
  return { size, applied: size };
}

/** `$top` as a page size, pages by `$skip` (servers that predate server-driven paging). */
function pageSizeWindow(config: ResoConfig, query: ODataQuery, length: number): PageWindow {
  const size = Math.min(query.top ?? config.defaultTop ?? config.maxTop, config.maxTop);
  const start = Math.min(query.skip, length);
  const end = Math.min(start + size, length);
  return { start, end, ...(config.nextLink && end > start && end < length ? { next: { skip: end } } : {}) };
}

export function pageWindow(config: ResoConfig, query: ODataQuery, length: number, preferred: number | undefined): PageWindow {
  if (config.topSemantics === 'pageSize') return pageSizeWindow(config, query, length);
  const answerStart = Math.min(query.skip, length);
  // The $skip bug: `$top=T&$skip=S` is answered with records [S, T) — T − S of them — and no
  // nextLink, as if $top were an index past the end of the answer.
  const skipBug = config.skipBug === true && query.skip > 0;
  const answerEnd =
    query.top === undefined
      ? length
      : skipBug
        ? Math.min(Math.max(query.top, answerStart), length)
        : Math.min(answerStart + query.top, length);
  const { size, applied } = serverPageSize(config, preferred);
  const start = Math.min(answerStart + query.skipToken, answerEnd);
  const end = Math.min(start + size, answerEnd);
  const served = end - answerStart;
  const linkDropped = config.dropNextLinkAfter !== undefined && served >= config.dropNextLinkAfter;
  const more = config.nextLink && !skipBug && !linkDropped && end > start && end < answerEnd;
  return { start, end, ...(more ? { next: { skipToken: served } } : {}), ...(applied === undefined ? {} : { preferenceApplied: applied }) };
}
