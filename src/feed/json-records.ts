/**
 * JSON feeds as record streams: an array or OData `{"value":[...]}` (following
 * "@odata.nextLink" when the feed is a URL), or NDJSON. Line = record index (JSON) or line
 * number (NDJSON). A record that is not a JSON object becomes a record with a `problem`.
 */
import { feedUnreadable } from './feed-error.js';
import { JsonArraySplitter, JsonSplitError } from './json-splitter.js';
import type { SourceItem } from './source-record.js';

export interface JsonReadOptions {
  readonly where: string;
  /** Longest record accepted, in characters: a record that never closes must not fill memory. */
  readonly maxRecordBytes: number;
  /** Opens the next OData page (URL feeds only); without it "@odata.nextLink" is ignored. */
  readonly nextPage?: (url: string) => Promise<AsyncIterable<string>>;
}

function toItem(line: number, text: string): SourceItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (thrown) {
    return { line, record: [], problem: `not valid JSON (${(thrown as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, record: [], problem: 'the record is not a JSON object' };
  }
  return { line, record: value as Readonly<Record<string, unknown>> };
}

function splitFailure(thrown: unknown, where: string, index: number): Error {
  if (!(thrown instanceof JsonSplitError)) return thrown as Error;
  return feedUnreadable(`${thrown.message} (after record ${index})`, where, 'Check that the feed is complete JSON (an array, or an object with a "value" array).', thrown);
}

function tooLarge(where: string, line: number, max: number): Error {
  return feedUnreadable(`record ${line} is larger than ${max} bytes`, where, 'Check that the JSON is well formed there, or raise the maximum record size.');
}

/** Records of a JSON array / OData document, across OData pages when `nextPage` is given. */
export async function* jsonItems(first: AsyncIterable<string>, options: JsonReadOptions): AsyncGenerator<SourceItem[]> {
  let index = 0;
  let where = options.where;
  let page: AsyncIterable<string> | undefined = first;
  const visited = new Set([where]);
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
    if (typeof next === 'string' && next !== '' && options.nextPage !== undefined) {
      const url = new URL(next, where).href;
      // Why: a server that links back to a page already read would make the feed endless.
      if (visited.has(url)) throw feedUnreadable(`"@odata.nextLink" points back to ${url}, a page already read`, options.where, 'Fix the server\'s paging.');
      visited.add(url);
      where = url;
      page = await options.nextPage(url);
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
