/**
 * CSV/TSV reading with csv-parse, closing the traps it is silent on: duplicate header names,
 * header-only files, unbounded records. Records come out as arrays of cells with the 1-based
 * line they start on (header = line 1).
 */
import { parse } from 'csv-parse';
import { errorCode } from '../shared/errors.js';
import { feedUnreadable, isFeedError } from './feed-error.js';
import type { SourceItem } from './source-record.js';

export interface CsvReadOptions {
  readonly where: string;
  readonly delimiter: string;
  readonly maxRecordBytes: number;
}

export interface CsvRecords {
  readonly header: readonly string[];
  /** Data records in batches (one per chunk read), the first batch already read (so an empty body was detected up front). */
  readonly items: AsyncGenerator<SourceItem[]>;
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

/** `recordStart`: the line after the last record read, where the failing record begins. */
function csvFailure(thrown: unknown, options: CsvReadOptions, recordStart: number): Error {
  if (isFeedError(thrown)) return thrown as Error;
  const line = (thrown as { lines?: unknown }).lines;
  const at = typeof line === 'number' ? ` near line ${line}` : '';
  const code = errorCode(thrown);
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return feedUnreadable(
      `the record starting on line ${recordStart} is larger than ${options.maxRecordBytes} bytes`,
      options.where,
      'Look for an unclosed quote on that line, or raise the maximum record size.',
      thrown,
    );
  }
  if (code === 'CSV_QUOTE_NOT_CLOSED') {
    return feedUnreadable(
      `a quote opened in the record starting on line ${recordStart} is never closed (the file may be truncated)`,
      options.where,
      'Fix the quoting or export the file again.',
      thrown,
    );
  }
  const message = thrown instanceof Error ? (thrown.message.split('\n')[0] ?? code) : code;
  return feedUnreadable(`CSV error${at}: ${message}`, options.where, 'Fix the file, or check --delimiter and --encoding.', thrown);
}

function duplicateHeaderProblem(header: readonly string[]): string | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < header.length; i++) {
    const key = (header[i] ?? '').trim().toLowerCase();
    if (key === '') continue;
    const before = seen.get(key);
    if (before !== undefined)
      return `column '${(header[i] ?? '').trim()}' appears twice in the header (columns ${before + 1} and ${i + 1})`;
    seen.set(key, i);
  }
  return undefined;
}

/**
 * Reads the header and the first record; throws FEED_UNREADABLE for an unusable file.
 *
 * csv-parse is driven as a push parser: each chunk goes straight to the parser's own
 * `_transform`, and records are collected from its `push` calls. Why not pipe and iterate the
 * stream: that costs a stream buffer and a promise per record, about as much as mapping the
 * record; here a chunk yields its records as one batch.
 */
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
  let header: string[] | undefined;
  let width = 0;
  let previousEnd = 0;
  let batch: SourceItem[] = [];
  // `parser.info` (documented live counters) still describes the record while push() runs.
  parser.push = (chunk: unknown): boolean => {
    if (chunk === null) return true;
    const cells = chunk as string[];
    const end = parser.info.lines;
    // Fast path: a one-line record right after the previous one starts on its own end line.
    const line = end === previousEnd + 1 ? end : end - breaksInside(cells);
    previousEnd = end;
    if (header === undefined) {
      header = cells.map((name) => name.trim());
      width = header.length;
    } else if (cells.length !== width) {
      batch.push({
        line,
        record: cells,
        problem: `the row has ${cells.length} fields but the header has ${width} (check quoting and the delimiter)`,
      });
    } else {
      batch.push({ line, record: cells });
    }
    return true;
  };
  let failure: unknown;
  const settle = (error?: Error | null): void => {
    if (error !== undefined && error !== null) failure = error;
  };
  const chunks = input[Symbol.asyncIterator]();
  let ended = false;
  /** Feeds chunks until some records are ready; undefined at the end of the input. */
  const nextBatch = async (): Promise<SourceItem[] | undefined> => {
    while (batch.length === 0 && !ended) {
      let next: IteratorResult<Uint8Array | string>;
      try {
        next = await chunks.next();
      } catch (thrown) {
        throw csvFailure(thrown, options, previousEnd + 1);
      }
      if (next.done === true) {
        ended = true;
        parser._flush(settle);
      } else {
        const bytes = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
        parser._transform(bytes, 'utf8', settle);
      }
      if (failure !== undefined) throw csvFailure(failure, options, previousEnd + 1);
    }
    if (batch.length === 0) return undefined;
    const ready = batch;
    batch = [];
    return ready;
  };
  const close = async (): Promise<void> => {
    await chunks.return?.();
  };
  try {
    const firstBatch = (await nextBatch()) ?? [];
    if (header === undefined)
      throw feedUnreadable('the file is empty', options.where, 'Export the feed again with a header row and listings.');
    const duplicate = duplicateHeaderProblem(header);
    if (duplicate !== undefined)
      throw feedUnreadable(duplicate, options.where, 'Rename or remove one of them (only one column may feed a field).');
    const pending = firstBatch.length > 0 ? firstBatch : ((await nextBatch()) ?? []);
    if (pending.length === 0)
      throw feedUnreadable('it has a header but no rows', options.where, 'Export the feed again with its listings.');
    async function* items(): AsyncGenerator<SourceItem[]> {
      try {
        let ready: SourceItem[] | undefined = pending;
        while (ready !== undefined) {
          yield ready;
          ready = await nextBatch();
        }
      } finally {
        await close();
      }
    }
    return { header, items: items() };
  } catch (thrown) {
    await close();
    throw thrown;
  }
}
