/**
 * One photo from its source URL into the media store: streamed through a sha256 into a staged
 * file (never the whole photo in memory), its Content-Type and size checked, within a deadline,
 * and stored under its content's key. Failures worth repeating (5xx, 429, a dropped connection)
 * go through the one read-retry loop (src/net/retry-read.ts), a 429's Retry-After holding that
 * host's downloads; the rest are answered as a reason, never thrown: a photo not fetched does not
 * stop the run.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { retryAfterWithin } from '../../net/retry-after.js';
import { retryRead } from '../../net/retry-read.js';
import { errorCode } from '../../shared/errors.js';
import type { HostHolds } from './host-holds.js';
import type { MediaStore } from './media-store.js';
import { isImageType, mediaTypeOf, objectKey } from './object-key.js';

/**
 * Why a photo was not fetched (the run summary counts them by host and reason); `budget`: the
 * feed's media byte window was full, so it was not asked for (photo-hosting.ts).
 */
export type PhotoFailureReason =
  | 'timeout'
  | 'connection'
  | 'rate-limited'
  | 'server-error'
  | 'expired'
  | 'refused'
  | 'not-an-image'
  | 'too-large'
  | 'store-failed'
  | 'budget';

export interface DownloadSettings {
  store: MediaStore;
  holds: HostHolds;
  /** The User-Agent of each download; undefined sends undici's own. */
  userAgent?: () => Promise<string | undefined>;
  /** Deadline of one attempt, headers and body together. */
  timeoutMs: number;
  /** Largest photo stored. */
  maxBytes: number;
  /** Attempts in all (the first included) for failures worth repeating. */
  attempts?: number;
  /** Longest Retry-After honoured; a host asking longer is left for the next run. */
  maxRetryAfterMs?: number;
  /** Told the size of every chunk received (the media byte budget). */
  onBytes?: (bytes: number) => void;
  /** Told how each download ended, with the bytes all its attempts received (the /metrics counters). */
  onSettled?: (result: DownloadResult, bytes: number) => void;
  signal?: AbortSignal;
}

export type DownloadResult = { ok: true; key: string; bytes: number } | { ok: false; reason: PhotoFailureReason; status?: number };

class PhotoFailure extends Error {
  constructor(
    readonly reason: PhotoFailureReason,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(reason);
    this.name = 'PhotoFailure';
  }
}

let shared: Dispatcher | undefined;
/** Why follow redirects: media CDNs and signed URLs commonly answer a photo with a 302 to storage. */
function dispatcher(): Dispatcher {
  shared ??= new Agent({ connections: 32 }).compose(interceptors.redirect({ maxRedirections: 5 }));
  return shared;
}

/** Downloads `url` into the store; the object key, or why not. */
export async function downloadPhoto(url: string, settings: DownloadSettings): Promise<DownloadResult> {
  if (settings.onSettled === undefined) return downloadOnce(url, settings);
  let received = 0;
  const result = await downloadOnce(url, {
    ...settings,
    onBytes: (bytes) => {
      received += bytes;
      settings.onBytes?.(bytes);
    },
  });
  settings.onSettled(result, received);
  return result;
}

async function downloadOnce(url: string, settings: DownloadSettings): Promise<DownloadResult> {
  const host = new URL(url).host;
  const maxRetryAfterMs = settings.maxRetryAfterMs ?? 30_000;
  try {
    return await retryRead(
      async () => {
        await settings.holds.wait(host, settings.signal);
        try {
          return await attempt(url, settings);
        } catch (thrown) {
          if (thrown instanceof PhotoFailure && thrown.reason === 'rate-limited' && thrown.retryAfterMs !== undefined)
            settings.holds.hold(host, thrown.retryAfterMs);
          throw thrown;
        }
      },
      {
        attempts: settings.attempts ?? 3,
        baseMs: 500,
        maxMs: 10_000,
        mayRetry: (error) =>
          error instanceof PhotoFailure && error.retryable && !(error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs),
        // The host's hold (set above) already waits what it asked.
        askedWaitMs: (error) => (error instanceof PhotoFailure && error.retryAfterMs !== undefined ? 0 : undefined),
        ...(settings.signal === undefined ? {} : { signal: settings.signal }),
      },
    );
  } catch (thrown) {
    if (thrown instanceof PhotoFailure)
      return thrown.status === undefined
        ? { ok: false, reason: thrown.reason }
        : { ok: false, reason: thrown.reason, status: thrown.status };
    throw thrown;
  }
}

function failureOfStatus(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): PhotoFailure {
  if (status === 429) {
    const asked = retryAfterWithin(headers['retry-after'], 3_600_000, Date.now());
    return new PhotoFailure('rate-limited', true, status, asked ?? 1000);
  }
  if (status >= 500) return new PhotoFailure('server-error', true, status);
  // Why 403 and 410 are 'expired': signed media URLs answer so once their signature ran out; the caller reads the Media again.
  if (status === 403 || status === 410) return new PhotoFailure('expired', false, status);
  return new PhotoFailure('refused', false, status);
}

async function attempt(url: string, settings: DownloadSettings): Promise<DownloadResult> {
  // Why a timer of our own, cleared when the attempt ends: nothing may abort a request already answered.
  const timer = new AbortController();
  const clock = setTimeout(() => timer.abort(), settings.timeoutMs);
  try {
    return await attemptWithin(url, settings, timer.signal);
  } finally {
    clearTimeout(clock);
  }
}

async function attemptWithin(url: string, settings: DownloadSettings, deadline: AbortSignal): Promise<DownloadResult> {
  const signal = settings.signal === undefined ? deadline : AbortSignal.any([deadline, settings.signal]);
  const userAgent = await settings.userAgent?.();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      dispatcher: dispatcher(),
      headers: { accept: 'image/*', ...(userAgent === undefined ? {} : { 'user-agent': userAgent }) },
      signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  } catch (thrown) {
    settings.signal?.throwIfAborted();
    throw new PhotoFailure(deadline.aborted || /TIMEOUT/.test(errorCode(thrown)) ? 'timeout' : 'connection', !deadline.aborted);
  }
  const { statusCode, headers, body } = response;
  body.on('error', () => undefined);
  if (statusCode !== 200) {
    await body.dump().catch(() => undefined);
    throw failureOfStatus(statusCode, headers);
  }
  const type = mediaTypeOf(headers['content-type']);
  const declared = Number(headers['content-length'] ?? Number.NaN);
  if (!isImageType(type) || declared > settings.maxBytes) {
    body.destroy();
    throw new PhotoFailure(isImageType(type) ? 'too-large' : 'not-an-image', false);
  }
  const staged = join(settings.store.stagingDir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      settings.onBytes?.(chunk.length);
      if (bytes > settings.maxBytes) return done(new PhotoFailure('too-large', false));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counted, createWriteStream(staged), { signal });
  } catch (thrown) {
    await unlink(staged).catch(() => undefined);
    settings.signal?.throwIfAborted();
    if (thrown instanceof PhotoFailure) throw thrown;
    throw new PhotoFailure(deadline.aborted ? 'timeout' : 'connection', !deadline.aborted);
  }
  const key = objectKey(hash.digest('hex'), type);
  try {
    await settings.store.put(key, staged, { bytes, contentType: type });
  } catch {
    await unlink(staged).catch(() => undefined);
    throw new PhotoFailure('store-failed', true);
  }
  return { ok: true, key, bytes };
}
