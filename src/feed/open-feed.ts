/**
 * The importer's entry point: opens a feed (file or URL; CSV/TSV, JSON, OData, NDJSON), checks
 * that it can be read at all, then streams it as rows in the write shape. A bad row is a
 * `rejected` row, never an exception; a feed that cannot be read throws FEED_UNREADABLE.
 */
import { missingRequiredColumns } from './missing-required.js';
import { availableParallelism } from 'node:os';
import { UsageError } from '../shared/errors.js';
import { applyMapping } from './apply-mapping.js';
import { csvBrokenKeyReader, jsonBrokenKeyReader } from './broken-row-keys.js';
import { displayStep } from './display-step.js';
import { openFileSource, openUrlSource, type ByteBudget, type ByteSource } from './byte-source.js';
import type { UrlCopies } from './url-copies.js';
import { encodingName, type ByteCounter } from './decode.js';
import { feedInterrupted, feedUnreadable } from './feed-error.js';
import { feedHeader, shapeTracker } from './feed-shape-tracker.js';
import { displaySource, isUrl, localFileBytes } from './feed-source.js';
import { loadMappingFile, type MappingFile } from './mapping-schema.js';
import { openRecords, type Opened } from './open-records.js';
import { buildNativeMapping } from './profiles/native.js';
import { buildRedfinMapping, looksLikeRedfinExport } from './profiles/redfin.js';
import { buildResoMapping } from './profiles/reso.js';
import { compileMapping, ruleFor, type ProfileBuilder, type ProfileName, type RecordMapping } from './record-mapping.js';
import type { FeedOptions, FeedRow, FeedStats, OpenFeed, RejectedFeedRow } from './feed-types.js';
import { recordFilter } from './record-filter.js';
import { rowPipeline } from './row-pipeline.js';
import { openFeedInWorker } from './threaded-feed.js';
import type { SourceColumns, SourceItem } from './source-record.js';

export type { FeedOptions, FeedRow, FeedStats, OpenFeed, RejectedFeedRow };

const PROFILES: Readonly<Record<ProfileName, ProfileBuilder>> = {
  native: buildNativeMapping,
  redfin: buildRedfinMapping,
  reso: buildResoMapping,
};

const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

/**
 * Caps on what one feed URL may make a sync read. Why: a server that pages (or streams)
 * forever would keep a sync busy for hours; these are far above any real feed (a million RESO
 * records are about 1 GiB in a few thousand pages).
 */
export const DEFAULT_FEED_LIMITS = { maxPages: 10_000, maxBytes: 2 * 1024 ** 3, deadlineMs: 30 * 60_000 } as const;

/** What can stop a feed from outside: the sync's abort signal (SIGINT/SIGTERM). */
export interface FeedControl {
  readonly signal?: AbortSignal;
  /** A fan-out's URL copies: a URL feed read whole by an earlier chatbot's sync is read from its copy. */
  readonly urlCopies?: UrlCopies;
}

async function openSource(source: string, timeoutMs: number, budget: ByteBudget, control: FeedControl): Promise<ByteSource> {
  if (!isUrl(source)) return openFileSource(source);
  const { signal, urlCopies } = control;
  return openUrlSource(source, {
    timeoutMs,
    accept: 'application/json, text/csv;q=0.9, */*;q=0.5',
    budget,
    ...(signal ? { signal } : {}),
    ...(urlCopies ? { copies: urlCopies } : {}),
  });
}

function keyProblem(mapping: RecordMapping, columns: SourceColumns, options: FeedOptions, profile: ProfileName | null): string | undefined {
  const keyField = options.keyType === 'MLSNumber' ? 'MLSNumber' : 'Url';
  const rule = ruleFor(mapping, keyField);
  // A rule reading a named column needs that column in the header (JSON: in the first record).
  const found =
    rule !== undefined && (rule.column === undefined ? !rule.source.startsWith('no ') : columns.find(rule.column) !== undefined);
  if (found) return undefined;
  const under = profile === null ? 'with a mapping file that starts from nothing' : `under profile ${profile}`;
  return `no column holds the key ${keyField} for --key-type ${options.keyType} ${under}`;
}

/**
 * The rows, one per record, from batches of records. Hand-written rather than an async
 * generator: most calls are answered from the current batch, and a resolved promise costs far
 * less per row than resuming a generator (this runs a million times per feed).
 */
function rowIterable(batches: AsyncGenerator<SourceItem[]>, toRow: (item: SourceItem) => FeedRow): AsyncIterable<FeedRow> {
  let batch: SourceItem[] = [];
  let index = 0;
  const next = async (): Promise<IteratorResult<FeedRow>> => {
    while (index >= batch.length) {
      const result = await batches.next();
      if (result.done === true) return { done: true, value: undefined };
      batch = result.value;
      index = 0;
    }
    return { done: false, value: toRow(batch[index++] as SourceItem) };
  };
  const iterator: AsyncIterator<FeedRow> = {
    next: () => (index < batch.length ? Promise.resolve({ done: false, value: toRow(batch[index++] as SourceItem) }) : next()),
    return: async () => {
      await batches.return(undefined);
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

function describeColumns(names: readonly string[]): string {
  const shown = names
    .slice(0, 60)
    .map((name) => `'${name}'`)
    .join(', ');
  return names.length > 60 ? `${shown} and ${names.length - 60} more` : shown;
}

/**
 * Why 8 MiB (~35,000 Redfin rows): below it, starting the worker (~50 ms) costs about what
 * reading in parallel with planning saves.
 */
export const WORKER_MIN_BYTES = 8 * 1024 * 1024;

async function worthAWorker(options: FeedOptions): Promise<boolean> {
  if (options.thread === 'main' || (options.thread !== 'worker' && availableParallelism() < 2)) return false;
  if (options.thread === 'worker') return true;
  // A URL, or a file that cannot be stat'ed (opened in-thread, which reports why), stays here.
  return ((await localFileBytes(options.source)) ?? 0) >= WORKER_MIN_BYTES;
}

/**
 * Opens and validates the feed's header/format BEFORE returning: an unreadable feed throws here.
 * A large local file is read in a worker thread (see `thread`); rows, stats and errors are the same.
 */
export async function openFeed(options: FeedOptions, control: FeedControl = {}): Promise<OpenFeed> {
  return (await worthAWorker(options)) ? openFeedInWorker(options, control.signal) : openFeedInThisThread(options, control);
}

/** openFeed on the calling thread (the worker thread runs this too). */
export async function openFeedInThisThread(options: FeedOptions, control: FeedControl = {}): Promise<OpenFeed> {
  try {
    return await openInThisThread(options, control);
  } catch (thrown) {
    // An abort surfaces as a failed request: say what really happened.
    if (control.signal?.aborted === true) throw feedInterrupted(displaySource(options.source));
    throw thrown;
  }
}

async function openInThisThread(options: FeedOptions, control: FeedControl): Promise<OpenFeed> {
  const { signal } = control;
  const encoding = encodingName(options.encoding ?? 'utf-8');
  if (encoding === undefined)
    throw new UsageError(
      `Unknown encoding '${options.encoding ?? ''}': use utf-8, latin1, windows-1252, utf-16le or another WHATWG encoding label.`,
    );
  if (options.delimiter !== undefined && options.delimiter.length !== 1)
    throw new UsageError(`--delimiter must be one character, got '${options.delimiter}'.`);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const mappingFile: MappingFile | undefined = options.mapping === undefined ? undefined : await loadMappingFile(options.mapping);
  const profile: ProfileName | null = mappingFile?.profile === undefined ? options.profile : mappingFile.profile;
  const counter: ByteCounter = { bytes: 0 };
  const budget: ByteBudget = { bytes: 0, maxBytes: options.maxBytes ?? DEFAULT_FEED_LIMITS.maxBytes };
  const source = await openSource(options.source, timeoutMs, budget, control);
  let totalBytes = source.totalBytes;
  try {
    const opened: Opened = await openRecords(source, {
      source: options.source,
      format: options.format,
      delimiter: options.delimiter,
      encoding,
      maxRecordBytes: options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
      timeoutMs,
      counter,
      maxPages: options.maxPages ?? DEFAULT_FEED_LIMITS.maxPages,
      budget,
      signal,
      ...(control.urlCopies ? { copies: control.urlCopies } : {}),
      onPage: () => void (totalBytes = undefined),
    });
    const context = { keyType: options.keyType, resoPending: options.resoPending ?? 'active' } as const;
    const base = profile === null ? undefined : PROFILES[profile](opened.columns, context);
    const mapping = mappingFile === undefined ? (base ?? { rules: [] }) : applyMapping(base, mappingFile, opened.columns);
    const problem = keyProblem(mapping, opened.columns, options, profile);
    if (problem !== undefined) {
      const redfin = profile !== 'redfin' && looksLikeRedfinExport(opened.columns);
      const fix = redfin
        ? "Its header is a Redfin export's: add --profile redfin."
        : options.keyType === 'MLSNumber'
          ? 'Use --key-type URL, or map a column to MLSNumber in a mapping file.'
          : 'Use --key-type MLSNumber, or map a column to Url in a mapping file.';
      throw feedUnreadable(`${problem} (its columns are ${describeColumns(opened.columns.names)})`, source.where, fix);
    }
    const lacking = opened.shape === 'csv' ? missingRequiredColumns(mapping, opened.columns) : undefined;
    if (lacking !== undefined)
      throw feedUnreadable(
        `${lacking} (its columns are ${describeColumns(opened.columns.names)})`,
        source.where,
        'Rename the column in the feed, or map it in a mapping file ("columns": {"FIELD": "its column"}).',
      );
    const keyRule = ruleFor(mapping, options.keyType === 'MLSNumber' ? 'MLSNumber' : 'Url');
    const brokenKey =
      opened.shape === 'csv' ? csvBrokenKeyReader(keyRule, opened.columns.names, opened.delimiter ?? ',') : jsonBrokenKeyReader(keyRule);
    const compiled = compileMapping(mapping);
    const header = feedHeader(opened.shape, opened.columns, compiled.rules);
    const shape = shapeTracker(header, opened.columns, compiled.rules, compiled.produced);
    const filter = options.where === undefined ? undefined : recordFilter(options.where, opened.shape, opened.columns);
    const display = displayStep(options.display, opened.columns, compiled.rules);
    const pipeline = rowPipeline(mapping, compiled, options.keyType, brokenKey, shape, display, filter);
    return {
      rows: rowIterable(opened.items, pipeline.toRow),
      stats: () => pipeline.stats,
      progress: () => (totalBytes === undefined ? { bytes: counter.bytes } : { bytes: counter.bytes, totalBytes }),
      readIn: 'main',
      header,
      shape: () => shape.shape(),
    };
  } catch (thrown) {
    // Why: a feed refused here must not leave its file handle or socket open.
    source.close();
    throw thrown;
  }
}
