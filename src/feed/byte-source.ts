/**
 * Opens a feed's bytes: a local file (node:fs) or an http(s) URL (undici, streamed). Failing to
 * open is a FEED_UNREADABLE error thrown here, before any row is read. A URL's credentials and
 * query string never reach `where` (feed-source.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { request } from 'undici';
import { errorCode, UsageError } from '../shared/errors.js';
import { plainHttpHost, plainHttpRefusal } from '../shared/plain-http.js';
import { feedInterrupted, feedUnreadable, isFeedError } from './feed-error.js';
import { basicAuthorization, displaySource } from './feed-source.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { UrlCopies } from './url-copies.js';

export interface ByteSource {
  /** Where the bytes come from, as shown to people: the path, or the URL without credentials and query. */
  readonly where: string;
  /** Lower-case extension of the path or URL path ('.csv', '.json' …), '' when none. */
  readonly extension: string;
  readonly contentType: string | undefined;
  readonly totalBytes: number | undefined;
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Releases the file handle or socket when the feed is abandoned before its end. */
  readonly close: () => void;
}

/** Opens a local file; a missing file, a directory or no permission is FEED_UNREADABLE. */
export async function openFileSource(path: string): Promise<ByteSource> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw feedUnreadable('it is not a file', path, 'Pass the path of a CSV or JSON file.');
    // Why 64 KiB: large enough that csv-parse sees few chunk boundaries, small enough to keep RSS flat.
    const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return {
      where: path,
      extension: extname(path).toLowerCase(),
      contentType: undefined,
      totalBytes: info.size,
      chunks: stream,
      close: () => stream.destroy(),
    };
  } catch (thrown) {
    if (errorCode(thrown) === ErrorCode.FEED_UNREADABLE) throw thrown;
    const code = errorCode(thrown);
    const what = code === 'ENOENT' ? 'file not found' : code === 'EACCES' ? 'permission denied' : `cannot open (${code})`;
    throw feedUnreadable(what, path, 'Check the --feed path.', thrown);
  }
}

const TOO_LARGE_FIX = 'Check that the server ends the feed, or raise LISTING_SYNC_FEED_MAX_BYTES if it really is that large.';

/** Counts the bytes read from every page of one URL feed against a cap. */
export interface ByteBudget {
  bytes: number;
  readonly maxBytes: number;
}

/**
 * The chunks, failing FEED_UNREADABLE once the feed's pages together pass `budget.maxBytes`, and
 * FEED_INTERRUPTED when `signal` cut the body off (rather than a socket error).
 */
async function* withinBudget(
  chunks: AsyncIterable<Uint8Array>,
  budget: ByteBudget,
  where: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) {
      budget.bytes += chunk.length;
      // Why: a server that streams (or pages) forever must not keep a sync busy for hours.
      if (budget.bytes > budget.maxBytes) {
        throw feedUnreadable(`it is larger than ${budget.maxBytes} bytes, the most read from a feed URL`, where, TOO_LARGE_FIX);
      }
      yield chunk;
    }
  } catch (thrown) {
    if (signal?.aborted === true) throw feedInterrupted(where);
    if (isFeedError(thrown)) throw thrown;
    // Why: undici's own error ("Body Timeout Error") is not a line a person can act on.
    throw feedUnreadable(
      `the connection failed while the body was read (${errorCode(thrown)})`,
      where,
      'Check that the server is up and sends the feed without long pauses, then rerun.',
    );
  }
}

export interface UrlRequest {
  readonly timeoutMs: number;
  readonly accept: string;
  /** Shared by every page of one feed. */
  readonly budget: ByteBudget;
  readonly signal?: AbortSignal;
  /** A fan-out's copies: a URL read whole before is read from its copy, else fetched and kept (url-copies.ts). */
  readonly copies?: UrlCopies;
}

/**
 * GETs a URL and returns its body as a stream. An error status, a refused connection or a
 * timeout (headers or an idle body for `timeoutMs`) is FEED_UNREADABLE; messages name the URL
 * without its credentials and query string, and no client error (which could quote it) is kept.
 */
export async function openUrlSource(url: string, options: UrlRequest): Promise<ByteSource> {
  const copy = options.copies?.copyOf(url);
  if (copy !== undefined) {
    const local = await openFileSource(copy.path);
    return { ...local, where: displaySource(url), extension: extname(new URL(url).pathname).toLowerCase(), contentType: copy.contentType };
  }
  const fetched = await fetchUrlSource(url, options);
  return options.copies === undefined ? fetched : options.copies.keeping(url, fetched);
}

async function fetchUrlSource(url: string, options: UrlRequest): Promise<ByteSource> {
  const where = displaySource(url);
  const authorization = basicAuthorization(url);
  const clear = authorization === undefined ? undefined : plainHttpHost(url);
  if (clear !== undefined) throw new UsageError(plainHttpRefusal("the feed URL's user and password", '--feed', clear));
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'GET',
      headers: authorization === undefined ? { accept: options.accept } : { accept: options.accept, authorization },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (thrown) {
    if (options.signal?.aborted === true) throw feedInterrupted(where);
    throw feedUnreadable(
      `request failed (${errorCode(thrown)})`,
      where,
      'Check the URL and that the server is reachable, or raise the timeout.',
    );
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump().catch(() => undefined);
    throw feedUnreadable(`the server answered HTTP ${response.statusCode}`, where, 'Check the URL and the server, then rerun.');
  }
  const length = Number(response.headers['content-length']);
  // Why up front: a body announced larger than what is left of the cap would only be read to fail there.
  if (Number.isFinite(length) && length > options.budget.maxBytes - options.budget.bytes) {
    response.body.destroy();
    throw feedUnreadable(
      `the server announces ${length} bytes (Content-Length), more than the ${options.budget.maxBytes} bytes read from a feed URL`,
      where,
      TOO_LARGE_FIX,
    );
  }
  const contentType = response.headers['content-type'];
  return {
    where,
    extension: extname(new URL(url).pathname).toLowerCase(),
    contentType: typeof contentType === 'string' ? contentType.toLowerCase() : undefined,
    totalBytes: Number.isFinite(length) && length >= 0 ? length : undefined,
    chunks: withinBudget(response.body, options.budget, where, options.signal),
    close: () => response.body.destroy(),
  };
}
