/**
 * CSV/TSV reading with csv-parse, closing the traps it is silent on: duplicate header names,
 * header-only files, unbounded records. Records come out as arrays of cells with the 1-based
 * line they start on (header = line 1).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { errorCode } from '../errors.js';
import { feedUnreadable, isFeedError } from './feed-error.js';
import type { SourceItem } from './source-record.js';

export interface CsvReadOptions {
  readonly where: string;
  readonly delimiter: string;
  readonly maxRecordBytes: number;
}

export interface CsvRecords {
  readonly header: readonly string[];
  /** Data records, the first one already read (so an empty body was detected up front). */
  readonly items: AsyncGenerator<SourceItem>;
}

interface ParsedRecord {
  readonly record: string[];
  /** csv-parse's line count when the record was emitted: the line the record ends on. */
  readonly lines: number;
}

/** csv-parse counts every CR and LF inside quoted cells as a line; subtract them to find the start line. */
function breaksInside(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) {
    if (cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) continue;
    for (let i = 0; i < cell.length; i++) {
      const code = cell.charCodeAt(i);
      if (code === 10 || code === 13) count++;
    }
  }
  return count;
}

function csvFailure(thrown: unknown, options: CsvReadOptions): Error {
  if (isFeedError(thrown)) return thrown as Error;
  const line = (thrown as { lines?: unknown }).lines;
  const at = typeof line === 'number' ? ` near line ${line}` : '';
  const code = errorCode(thrown);
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return feedUnreadable(`a record${at} is larger than ${options.maxRecordBytes} bytes`, options.where, 'Look for an unclosed quote before that line, or raise the maximum record size.', thrown);
  }
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return feedUnreadable(`a quoted field${at} is never closed (the file may be truncated)`, options.where, 'Fix the quoting or re-export the file.', thrown);
  }
  const message = thrown instanceof Error ? thrown.message.split('\n')[0] ?? code : code;
  return feedUnreadable(`CSV error${at}: ${message}`, options.where, 'Fix the file, or check --delimiter and --encoding.', thrown);
}

function duplicateHeaderProblem(header: readonly string[]): string | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < header.length; i++) {
    const key = (header[i] ?? '').trim().toLowerCase();
    if (key === '') continue;
    const before = seen.get(key);
    if (before !== undefined) return `column '${(header[i] ?? '').trim()}' appears twice in the header (columns ${before + 1} and ${i + 1})`;
    seen.set(key, i);
  }
  return undefined;
}

/** Reads the header and the first record; throws FEED_UNREADABLE for an unusable file. */
export async function openCsvRecords(input: AsyncIterable<Uint8Array | string>, options: CsvReadOptions): Promise<CsvRecords> {
  const parser = parse({
    delimiter: options.delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: options.maxRecordBytes,
  });
  // Why not `info: true`: it copies the whole info object for every record (a fifth of the
  // parse time). csv-parse emits each record through the stream's push() while `parser.info`
  // (its documented live counters) still describes that record, so we read the line there.
  const push = parser.push.bind(parser);
  parser.push = (chunk: unknown): boolean => push(chunk === null ? null : { record: chunk as string[], lines: parser.info.lines });
  const source = Readable.from(input);
  // Errors on either side reach the iterator below through `parser` being destroyed with them.
  pipeline(source, parser).catch(() => undefined);
  const iterator: AsyncIterator<ParsedRecord> = parser[Symbol.asyncIterator]();
  const next = async (): Promise<IteratorResult<ParsedRecord>> => {
    try {
      return await iterator.next();
    } catch (thrown) {
      throw csvFailure(thrown, options);
    }
  };
  const headerResult = await next();
  if (headerResult.done === true) throw feedUnreadable('the file is empty', options.where, 'Export the feed again with a header row and listings.');
  const header = headerResult.value.record.map((name) => name.trim());
  const duplicate = duplicateHeaderProblem(header);
  if (duplicate !== undefined) {
    parser.destroy();
    throw feedUnreadable(duplicate, options.where, 'Rename or remove one of them (only one column may feed a field).');
  }
  const firstResult = await next();
  if (firstResult.done === true) throw feedUnreadable('it has a header but no rows', options.where, 'Export the feed again with its listings.');
  const width = header.length;
  let previousEnd = headerResult.value.lines;

  const toItem = (parsed: ParsedRecord): SourceItem => {
    const end = parsed.lines;
    // Fast path: a one-line record right after the previous one starts on its own end line.
    const line = end === previousEnd + 1 ? end : end - breaksInside(parsed.record);
    previousEnd = end;
    const cells = parsed.record;
    if (cells.length !== width) {
      return { line, record: cells, problem: `the row has ${cells.length} fields but the header has ${width} (check quoting and the delimiter)` };
    }
    return { line, record: cells };
  };

  async function* items(first: ParsedRecord): AsyncGenerator<SourceItem> {
    try {
      yield toItem(first);
      for (;;) {
        const result = await next();
        if (result.done === true) return;
        yield toItem(result.value);
      }
    } finally {
      parser.destroy();
    }
  }
  return { header, items: items(firstResult.value) };
}
