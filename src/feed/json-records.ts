/**
 * JSON feeds as record streams: an array or OData `{"value":[...]}` (following
 * "@odata.nextLink" when the feed is a URL, on its own origin and up to a page cap), or NDJSON.
 * Line = record index (JSON) or line number (NDJSON). A record that is not a JSON object
 * becomes a record with a `problem` (and its text, to read its key from).
 */
import { feedUnreadable } from './feed-error.js';
import { displaySource } from './feed-source.js';
import { JsonArraySplitter, JsonSplitError } from './json-splitter.js';
import type { SourceItem } from './source-record.js';

/** How "@odata.nextLink" is followed (URL feeds only); without it the link is ignored. */
export interface ODataPaging {
  /** The first page's whole URL (credentials and query included): links resolve against the page they are on. */
  readonly url: string;
  /** Most pages read, the first included. */
  readonly maxPages: number;
  /** Opens the page at a whole URL. */
  readonly nextPage: (url: string) => Promise<AsyncIterable<string>>;
}

export interface JsonReadOptions {
  /** The feed as shown to people (feed-source.ts displaySource). */
  readonly where: string;
  /** Longest record accepted, in characters: a record that never closes must not fill memory. */
  readonly maxRecordBytes: number;
  readonly paging?: ODataPaging;
}

function toItem(line: number, text: string): SourceItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (thrown) {
    return { line, record: [], problem: `not valid JSON (${(thrown as Error).message})`, text };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, record: [], problem: 'the record is not a JSON object', text };
  }
  return { line, record: value as Readonly<Record<string, unknown>> };
}

function splitFailure(thrown: unknown, where: string, index: number): Error {
  if (!(thrown instanceof JsonSplitError)) return thrown as Error;
  return feedUnreadable(
    `${thrown.message} (after record ${index})`,
    where,
    'Check that the feed is complete JSON (an array, or an object with a "value" array).',
    thrown,
  );
}

function tooLarge(where: string, line: number, max: number): Error {
  return feedUnreadable(
    `record ${line} is larger than ${max} bytes`,
    where,
    'Check that the JSON is well formed there, or raise the maximum record size.',
  );
}

/**
 * The whole URL of the page a nextLink names, or FEED_UNREADABLE when it must not be followed:
 * another origin, a page already read, or one page more than `paging.maxPages`.
 */
function nextPageUrl(link: string, current: string, paging: ODataPaging, pagesRead: number, visited: Set<string>): string {
  const where = displaySource(current);
  let url: URL;
  try {
    url = new URL(link, current);
  } catch {
    throw feedUnreadable(`"@odata.nextLink" is not a URL (${displaySource(link)})`, where, "Fix the server's paging.");
  }
  const origin = new URL(paging.url).origin;
  // Why: a feed's pages come from the server it was read from; a link to another host would have
  // the sync fetch (and trust) listings from a server nobody configured.
  if (url.origin !== origin) {
    throw feedUnreadable(
      `"@odata.nextLink" points to another origin (${url.origin}), which is not followed`,
      where,
      `Check the feed URL and the server's paging: its pages must stay on ${origin}.`,
    );
  }
  // Credentials written in the feed URL also hold for its pages on the same origin.
  if (url.username === '' && url.password === '') {
    const first = new URL(paging.url);
    url.username = first.username;
    url.password = first.password;
  }
  const href = url.href;
  // Why: a server that links back to a page already read would make the feed endless.
  if (visited.has(href))
    throw feedUnreadable(`"@odata.nextLink" points back to ${displaySource(href)}, a page already read`, where, "Fix the server's paging.");
  // Why a cap: a server that hands out new pages forever (even empty ones) would keep a sync busy for hours.
  if (pagesRead >= paging.maxPages) {
    throw feedUnreadable(
      `it has more than ${paging.maxPages} pages ("@odata.nextLink" still points to a further page)`,
      where,
      "Check the server's paging, or raise LISTING_SYNC_FEED_MAX_PAGES if the feed really has that many pages.",
    );
  }
  visited.add(href);
  return href;
}

/** Records of a JSON array / OData document, across OData pages when `paging` is given. */
export async function* jsonItems(first: AsyncIterable<string>, options: JsonReadOptions): AsyncGenerator<SourceItem[]> {
  let index = 0;
  let where = options.where;
  let current = options.paging?.url ?? '';
  let pagesRead = 1;
  let page: AsyncIterable<string> | undefined = first;
  const visited = new Set([current]);
  while (page !== undefined) {
    const splitter = new JsonArraySplitter();
    const ready: string[] = [];
    const collect = (text: string): void => void ready.push(text);
    try {
      for await (const text of page) {
        splitter.push(text, collect);
        if (splitter.heldLength() > options.maxRecordBytes) throw tooLarge(where, index + 1, options.maxRecordBytes);
        if (ready.length === 0) continue;
        const batch = ready.map((recordText) => toItem(++index, recordText));
        ready.length = 0;
        yield batch;
      }
      splitter.end();
    } catch (thrown) {
      throw splitFailure(thrown, where, index);
    }
    const next = splitter.meta['@odata.nextLink'];
    page = undefined;
    if (typeof next === 'string' && next !== '' && options.paging !== undefined) {
      current = nextPageUrl(next, current, options.paging, pagesRead, visited);
      where = displaySource(current);
      pagesRead += 1;
      page = await options.paging.nextPage(current);
    }
  }
}

/** Records of an NDJSON feed, one JSON object per line; blank lines are skipped. */
export async function* ndjsonItems(text: AsyncIterable<string>, where: string, maxRecordBytes: number): AsyncGenerator<SourceItem[]> {
  let line = 0;
  let rest = '';
  for await (const chunk of text) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    if (rest.length > maxRecordBytes) throw tooLarge(where, line + lines.length + 1, maxRecordBytes);
    const batch: SourceItem[] = [];
    for (const raw of lines) {
      line++;
      if (raw.trim() !== '') batch.push(toItem(line, raw));
    }
    if (batch.length > 0) yield batch;
  }
  line++;
  if (rest.trim() !== '') yield [toItem(line, rest)];
}
