/**
 * The simulator's media host (`/media/…` on the RESO simulator): the bytes of each photo,
 * deterministic per (MediaKey, ModificationTimestamp), behind MLS-style rules, each a mode a test
 * turns on: the User-Agent must be a live access token (MLS Grid since 2026-06-01), URLs are signed
 * and expire (403 once past), every n-th download is answered 429 with Retry-After, and downloads
 * of chosen photos hang (headers never sent). While the host is off (the default) MediaURL stays
 * the seeded `https://photos.reso-sim.test/...`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { ResoMedia } from './types.js';

export const MEDIA_PATH = '/media/';

export interface MediaHostModes {
  /** MediaURL points at this host (default false). */
  enabled: boolean;
  /** A download whose User-Agent is not a live access token gets 403. */
  tokenUserAgent: boolean;
  /** Signed URLs live this long from the moment a Media read issued them. */
  signedTtlMs: number;
  /** The next n URLs issued are already expired (a client that read them a while ago). */
  expireNext: number;
  /** Every n-th download is answered 429 (0: never), asking `retryAfterSeconds`. */
  rateLimitEvery: number;
  retryAfterSeconds: number;
  /** MediaKeys whose downloads never answer ('*': every one). */
  hang: readonly string[];
}

/** One download the host received. */
export interface MediaDownload {
  mediaKey: string;
  userAgent: string | undefined;
  status: number | 'hung';
  bytes: number;
}

const DEFAULT_MODES: MediaHostModes = {
  enabled: false,
  tokenUserAgent: false,
  signedTtlMs: 3_600_000,
  expireNext: 0,
  rateLimitEvery: 0,
  retryAfterSeconds: 1,
  hang: [],
};

/** The bytes of a photo: a JPEG start marker, then a sha256 chain of its key and stamp (2–40 KB, fixed per photo). */
export function photoBytes(mediaKey: string, stamp: string): Buffer {
  const seed = createHash('sha256').update(`${mediaKey}\n${stamp}`).digest();
  const size = 2048 + (seed.readUInt32BE(0) % 38_000);
  const out = Buffer.alloc(size);
  out.set([0xff, 0xd8, 0xff, 0xe0], 0);
  let block = seed;
  for (let at = 4; at < size; at += block.length) {
    block = createHash('sha256').update(block).digest();
    block.copy(out, at, 0, Math.min(block.length, size - at));
  }
  return out;
}

export type MediaAnswer =
  | { kind: 'photo'; status: 200; headers: Record<string, string>; body: Buffer }
  | { kind: 'refusal'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'hang' };

export class ResoMediaHost {
  private modes: MediaHostModes = { ...DEFAULT_MODES };
  private readonly secret = randomBytes(16);
  private readonly log: MediaDownload[] = [];
  private answered = 0;

  constructor(private readonly now: () => number) {}

  /** Changes modes; members given replace the current ones. */
  configure(change: Partial<MediaHostModes>): MediaHostModes {
    this.modes = { ...this.modes, ...change };
    return { ...this.modes };
  }

  get enabled(): boolean {
    return this.modes.enabled;
  }

  /** Every download received, oldest first. */
  downloads(): MediaDownload[] {
    return this.log.map((entry) => ({ ...entry }));
  }

  clearLog(): void {
    this.log.length = 0;
  }

  /** The MediaURL a Media read answers for `photo`: signed, expiring `signedTtlMs` from now. */
  urlFor(origin: string, photo: ResoMedia): string {
    let expires = this.now() + this.modes.signedTtlMs;
    if (this.modes.expireNext > 0) {
      this.modes.expireNext -= 1;
      expires = this.now() - 1;
    }
    const path = `${MEDIA_PATH}${encodeURIComponent(photo.MediaKey)}.jpg`;
    const query = `stamp=${encodeURIComponent(photo.ModificationTimestamp)}&exp=${expires}`;
    return `${origin}${path}?${query}&sig=${this.sign(`${path}?${query}`)}`;
  }

  /** Answers one download of `url` (path and query); `tokenLive` says whether a User-Agent is a live access token. */
  answer(url: URL, userAgent: string | undefined, tokenLive: (token: string) => boolean): MediaAnswer {
    const name = decodeURIComponent(url.pathname.slice(MEDIA_PATH.length));
    const mediaKey = name.replace(/\.jpg$/, '');
    const stamp = url.searchParams.get('stamp') ?? '';
    const record = (status: number | 'hung', bytes = 0): void => {
      this.log.push({ mediaKey, userAgent, status, bytes });
    };
    const refuse = (status: number, message: string, headers: Record<string, string> = {}): MediaAnswer => {
      record(status);
      return { kind: 'refusal', status, headers: { 'content-type': 'text/plain', ...headers }, body: message };
    };
    if (this.modes.hang.includes('*') || this.modes.hang.includes(mediaKey)) {
      record('hung');
      return { kind: 'hang' };
    }
    this.answered += 1;
    if (this.modes.rateLimitEvery > 0 && this.answered % this.modes.rateLimitEvery === 0)
      return refuse(429, 'too many media downloads', { 'retry-after': String(this.modes.retryAfterSeconds) });
    if (this.modes.tokenUserAgent && (userAgent === undefined || !tokenLive(userAgent)))
      return refuse(403, 'media downloads must send the OAuth access token as their User-Agent');
    const query = `stamp=${encodeURIComponent(stamp)}&exp=${url.searchParams.get('exp') ?? ''}`;
    if (url.searchParams.get('sig') !== this.sign(`${url.pathname}?${query}`)) return refuse(403, 'bad signature');
    if (Number(url.searchParams.get('exp')) < this.now()) return refuse(403, 'the signed URL has expired');
    const body = photoBytes(mediaKey, stamp);
    record(200, body.length);
    return { kind: 'photo', status: 200, headers: { 'content-type': 'image/jpeg' }, body };
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('hex').slice(0, 32);
  }
}
