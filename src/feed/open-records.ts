/**
 * From a feed's bytes to its source records: sniffs the format (CSV/TSV, JSON, OData, NDJSON),
 * decodes the text and opens the matching record reader, with the header (or first record) read
 * so the columns are known. An OData feed read from a URL is followed across its pages.
 */
import { openUrlSource, type ByteBudget, type ByteSource } from './byte-source.js';
import type { UrlCopies } from './url-copies.js';
import { openCsvRecords } from './csv-records.js';
import { checkedUtf8, decodedText, type ByteCounter } from './decode.js';
import { feedInterrupted, feedUnreadable } from './feed-error.js';
import { displaySource, isUrl } from './feed-source.js';
import { jsonItems, ndjsonItems, type JsonReadOptions } from './json-records.js';
import { peekBytes } from './peek.js';
import { sniffDelimiter, sniffFormat, type FeedFormat } from './sniff.js';
import { csvColumns, jsonColumns, type SourceColumns, type SourceItem } from './source-record.js';

const SNIFF_BYTES = 16 * 1024;

export interface Opened {
  readonly columns: SourceColumns;
  /** Records in batches (one per chunk read). */
  readonly items: AsyncGenerator<SourceItem[]>;
  /** 'csv' when records are arrays of cells aligned with `columns.names`, 'json' for objects. */
  readonly shape: 'csv' | 'json';
  /** The CSV delimiter in use. */
  readonly delimiter?: string;
}

export interface ReadSettings {
  /** The feed as given: a path, or the whole URL (credentials and query string included), to fetch. */
  readonly source: string;
  readonly format: FeedFormat | undefined;
  readonly delimiter: string | undefined;
  readonly encoding: string;
  readonly maxRecordBytes: number;
  readonly timeoutMs: number;
  readonly counter: ByteCounter;
  /** Most OData pages followed (the first page counts). */
  readonly maxPages: number;
  /** Bytes read from a URL feed so far, against its cap (every page together). */
  readonly budget: ByteBudget;
  readonly signal: AbortSignal | undefined;
  /** A fan-out's URL copies (url-copies.ts): each page is fetched once for every chatbot on the source. */
  readonly copies?: UrlCopies;
  /** Called when a further OData page is opened (the total size is no longer known). */
  readonly onPage: () => void;
}

/** Reads the first JSON record (so `columns` can be known) and replays it ahead of the rest. */
async function openJson(items: AsyncGenerator<SourceItem[]>, where: string): Promise<Opened> {
  const first = await items.next();
  const firstBatch = first.done === true ? [] : first.value;
  const firstItem = firstBatch[0];
  if (firstItem === undefined) throw feedUnreadable('it contains no records', where, 'Check that the feed has listings.');
  if (firstItem.problem !== undefined)
    throw feedUnreadable(`record ${firstItem.line}: ${firstItem.problem}`, where, 'Check that the feed is JSON records (objects).');
  const record = Array.isArray(firstItem.record) ? {} : (firstItem.record as Readonly<Record<string, unknown>>);
  async function* replay(): AsyncGenerator<SourceItem[]> {
    yield firstBatch;
    yield* items;
  }
  return { columns: jsonColumns(record), items: replay(), shape: 'json' };
}

/** How a JSON feed read from a URL opens its further OData pages. */
function paging(settings: ReadSettings, encoding: string): JsonReadOptions['paging'] {
  if (!isUrl(settings.source)) return undefined;
  const nextPage = async (url: string): Promise<AsyncIterable<string>> => {
    // Why here: a server handing out empty pages yields no rows, so the row loop never sees the signal.
    if (settings.signal?.aborted === true) throw feedInterrupted(displaySource(url));
    const page = await openUrlSource(url, {
      timeoutMs: settings.timeoutMs,
      accept: 'application/json',
      budget: settings.budget,
      ...(settings.signal ? { signal: settings.signal } : {}),
      ...(settings.copies ? { copies: settings.copies } : {}),
    });
    settings.onPage();
    return decodedText(page.chunks, encoding, page.where, settings.counter);
  };
  return { url: settings.source, maxPages: settings.maxPages, nextPage };
}

/** Sniffs the format and opens the matching record reader (header and first records read). */
export async function openRecords(source: ByteSource, settings: ReadSettings): Promise<Opened> {
  const { encoding, maxRecordBytes, counter } = settings;
  const peeked = await peekBytes(source.chunks, SNIFF_BYTES);
  const sample = new TextDecoder(encoding).decode(peeked.head);
  const sniffed = sniffFormat(source.extension, source.contentType, sample);
  if ('problem' in sniffed) {
    const fix =
      sniffed.problem === 'the file is empty' ? 'Export the feed again: it has no content.' : 'Pass a CSV, TSV, JSON or NDJSON feed.';
    throw feedUnreadable(sniffed.problem, source.where, fix);
  }
  const format: FeedFormat = settings.format ?? sniffed.format;
  if (format === 'csv') {
    // UTF-8 goes to csv-parse as checked bytes (no decode and re-encode); other encodings as text.
    const input =
      encoding === 'utf-8'
        ? checkedUtf8(peeked.chunks, source.where, counter)
        : decodedText(peeked.chunks, encoding, source.where, counter);
    const delimiter = settings.delimiter ?? sniffDelimiter(sample, source.extension);
    const csv = await openCsvRecords(input, { where: source.where, delimiter, maxRecordBytes });
    return { columns: csvColumns(csv.header), items: csv.items, shape: 'csv', delimiter };
  }
  const text = decodedText(peeked.chunks, encoding, source.where, counter);
  if (format === 'ndjson') return openJson(ndjsonItems(text, source.where, maxRecordBytes), source.where);
  // "@odata.nextLink" is followed only for URL feeds: a local file has no server to ask.
  const pages = paging(settings, encoding);
  return openJson(jsonItems(text, { where: source.where, maxRecordBytes, ...(pages ? { paging: pages } : {}) }), source.where);
}
