/**
 * Byte → text with a hard failure on bytes that are not valid in the chosen encoding: a feed
 * silently full of U+FFFD would be synced as garbage. Every error names the byte offset.
 */
import { isUtf8 } from 'node:buffer';
import { feedUnreadable } from './feed-error.js';

/** Counts bytes as they are consumed (the progress bar reads it). */
export interface ByteCounter {
  bytes: number;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/** Normalises an encoding label ('latin1' → 'windows-1252'), or undefined when Node does not know it. */
export function encodingName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

function startsWithUtf8Bom(bytes: Uint8Array): boolean {
  return bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** Offset of the first byte that starts an invalid UTF-8 sequence, or -1 (a truncated tail counts as invalid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
    if (need === 0 || i + need >= n) return i;
    // Second-byte ranges exclude overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    const second = bytes[i + 1] ?? 0;
    if (second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k] ?? 0;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** Length of `bytes` without a trailing, possibly incomplete UTF-8 sequence (kept for the next chunk). */
function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back] ?? 0;
    if (b < 0x80) return n;
    if (b >= 0xc0) {
      const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return len > back ? n - back : n;
    }
  }
  return n;
}

function encodingError(where: string, offset: number, byte: number | undefined, encoding: string): Error {
  const hex = byte === undefined ? 'end of file' : `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  const fix =
    encoding === 'utf-8'
      ? 'If the file is not UTF-8, pass --encoding latin1 (or its real encoding).'
      : "Pass the file's real encoding with --encoding (utf-8, latin1, windows-1252, utf-16le …).";
  return feedUnreadable(`byte ${hex} at byte offset ${offset} is not valid ${encoding}`, where, fix);
}

/**
 * Passes UTF-8 bytes through unchanged (csv-parse reads bytes, no decode/re-encode), after
 * checking them; a leading BOM is dropped so it can never become part of the first column name.
 */
export async function* checkedUtf8(chunks: AsyncIterable<Uint8Array>, where: string, counter: ByteCounter): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  let first = true;
  for await (const chunk of chunks) {
    const start = counter.bytes - (carry?.length ?? 0);
    counter.bytes += chunk.length;
    let buf = carry === undefined ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length) : Buffer.concat([carry, chunk]);
    let skipped = 0;
    if (first) {
      first = false;
      if (startsWithUtf8Bom(buf)) {
        buf = buf.subarray(3);
        skipped = 3;
      }
    }
    const cut = completeUtf8Length(buf);
    const body = buf.subarray(0, cut);
    if (!isUtf8(body)) {
      const at = firstInvalidUtf8(body);
      throw encodingError(where, start + skipped + at, body[at], 'utf-8');
    }
    carry = cut < buf.length ? Buffer.from(buf.subarray(cut)) : undefined;
    if (body.length > 0) yield body;
  }
  if (carry !== undefined) {
    if (!isUtf8(carry)) throw encodingError(where, counter.bytes - carry.length, carry[0], 'utf-8');
    yield carry;
  }
}

/** Smallest prefix of `bytes` a fresh fatal decoder rejects: the offset of the bad byte in the chunk. */
function failingOffset(encoding: string, bytes: Uint8Array): number {
  let lo = 1;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    try {
      new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo - 1;
}

/** Decodes to text with a fatal decoder (any encoding Node knows); BOMs are removed. */
export async function* decodedText(
  chunks: AsyncIterable<Uint8Array>,
  encoding: string,
  where: string,
  counter: ByteCounter,
): AsyncGenerator<string> {
  if (encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8');
    for await (const bytes of checkedUtf8(chunks, where, counter)) yield decoder.decode(bytes, { stream: true });
    const tail = decoder.decode();
    if (tail.length > 0) yield tail;
    return;
  }
  const decoder = new TextDecoder(encoding, { fatal: true });
  let first = true;
  let firstText = true;
  for await (const chunk of chunks) {
    const start = counter.bytes;
    counter.bytes += chunk.length;
    let bytes = chunk;
    if (first) {
      first = false;
      // Why: a UTF-8 BOM in front of a latin1-declared file would otherwise become "ï»¿" in the first column name.
      if (startsWithUtf8Bom(bytes) && encoding !== 'utf-16le' && encoding !== 'utf-16be') bytes = bytes.subarray(3);
    }
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      const at = failingOffset(encoding, bytes);
      throw encodingError(where, start + (chunk.length - bytes.length) + at, bytes[at], encoding);
    }
    if (text.length === 0) continue;
    if (firstText && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    firstText = false;
    yield text;
  }
  try {
    const tail = decoder.decode();
    if (tail.length > 0) yield tail;
  } catch {
    throw encodingError(where, counter.bytes, undefined, encoding);
  }
}
