/**
 * Opens a feed's bytes: a local file (node:fs) or an http(s) URL (undici, streamed). Failing to
 * open is a FEED_UNREADABLE error thrown here, before any row is read.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { request } from 'undici';
import { errorCode } from '../errors.js';
import { feedUnreadable } from './feed-error.js';

export interface ByteSource {
  /** Where the bytes come from, as the user wrote it (path or URL): used in messages. */
  readonly where: string;
  /** Lower-case extension of the path or URL path ('.csv', '.json' …), '' when none. */
  readonly extension: string;
  readonly contentType: string | undefined;
  readonly totalBytes: number | undefined;
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Releases the file handle or socket when the feed is abandoned before its end. */
  readonly close: () => void;
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
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
    return { where: path, extension: extname(path).toLowerCase(), contentType: undefined, totalBytes: info.size, chunks: stream, close: () => stream.destroy() };
  } catch (thrown) {
    if (errorCode(thrown) === 'FEED_UNREADABLE') throw thrown;
    const code = errorCode(thrown);
    const what = code === 'ENOENT' ? 'file not found' : code === 'EACCES' ? 'permission denied' : `cannot open (${code})`;
    throw feedUnreadable(what, path, 'Check the --feed path.', thrown);
  }
}

/**
 * GETs a URL and returns its body as a stream. An error status, a refused connection or a
 * timeout (headers or an idle body for `timeoutMs`) is FEED_UNREADABLE.
 */
export async function openUrlSource(url: string, timeoutMs: number, accept: string): Promise<ByteSource> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { accept },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (thrown) {
    throw feedUnreadable(`request failed (${errorCode(thrown)})`, url, 'Check the URL and that the server is reachable, or raise the timeout.', thrown);
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump().catch(() => undefined);
    throw feedUnreadable(`the server answered HTTP ${response.statusCode}`, url, 'Check the URL and the server, then rerun.');
  }
  const length = Number(response.headers['content-length']);
  const contentType = response.headers['content-type'];
  return {
    where: url,
    extension: extname(new URL(url).pathname).toLowerCase(),
    contentType: typeof contentType === 'string' ? contentType.toLowerCase() : undefined,
    totalBytes: Number.isFinite(length) && length >= 0 ? length : undefined,
    chunks: response.body,
    close: () => response.body.destroy(),
  };
}
