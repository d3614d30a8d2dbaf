/**
 * The line each feed key was first seen on, for duplicate-key rejections, in 14–16 bytes of typed
 * arrays per key (64-bit hash, chain link, bucket heads) instead of a Map holding every key string
 * (about 60 bytes per key, which made the importer's memory grow with the feed: 165 MiB at 1M
 * rows against 105 MiB at 100k).
 *
 * Why a key is recognised by a 64-bit hash instead of its text: keeping the text is what costs
 * the memory. Two different keys share a hash with probability about n² / 2^65 for a feed of n
 * keys (1M keys: about 3 in 100 million runs); the row then loses as a duplicate, visibly, in the
 * rejected rows with both line numbers, never silently.
 */

/** Records keys as they are seen; see the module comment for the (tiny) chance of a false match. */
export interface FirstSeenLines {
  /** The line `key` was first seen on; when it is new, records `line` for it and returns undefined. */
  claim(key: string, line: number): number | undefined;
  readonly size: number;
}

const INITIAL_BUCKETS = 1024;
/** Average keys per bucket before the bucket heads double: chains stay one or two keys long. */
const MAX_LOAD = 2;
/** Keys per block of the append-only key records; blocks are never copied or freed. */
const BLOCK_SHIFT = 14;
const BLOCK_KEYS = 1 << BLOCK_SHIFT;
/** Per key record: hash high, hash low, next ordinal + 1 in the bucket's chain (0 ends it). */
const RECORD = 3;

/**
 * A 64-bit hash of the UTF-16 code units as two 32-bit lanes: cyrb53's mixing, with both lanes
 * kept whole instead of folded into 53 bits.
 */
function hashKey(key: string, out: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 2654435761);
    h2 = Math.imul(h2 ^ unit, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out[0] = h1;
  out[1] = h2;
}

/**
 * Lines by claim order, as runs of equal `line - ordinal`: in a file each claimed key sits on a
 * later line than the one before, so a clean CSV file is one run and each multi-line record,
 * keyless or excluded row before a claim adds one. Any sequence of lines is kept exactly; only
 * the size depends on that.
 */
function lineRuns() {
  const starts: number[] = [];
  const offsets: number[] = [];
  return {
    add(ordinal: number, line: number): void {
      if (offsets[offsets.length - 1] !== line - ordinal) {
        starts.push(ordinal);
        offsets.push(line - ordinal);
      }
    },
    lineOf(ordinal: number): number {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if ((starts[middle] as number) <= ordinal) low = middle;
        else high = middle - 1;
      }
      return ordinal + (offsets[low] as number);
    },
  };
}

export function firstSeenLines(): FirstSeenLines {
  // Key records in claim order, in fixed-size blocks. Why chaining through them rather than open
  // addressing: only the small bucket-head array is ever reallocated, so growing leaves little
  // garbage behind (a rebuilt slot table left ~10 MiB of dead copies at 1M keys until a full GC).
  const blocks: Uint32Array[] = [];
  const lines = lineRuns();
  let heads = new Uint32Array(INITIAL_BUCKETS);
  let mask = INITIAL_BUCKETS - 1;
  let size = 0;
  const hashed = new Uint32Array(2);

  const block = (ordinal: number): Uint32Array => blocks[ordinal >>> BLOCK_SHIFT] as Uint32Array;
  const offset = (ordinal: number): number => (ordinal & (BLOCK_KEYS - 1)) * RECORD;

  /** Puts a recorded key at the front of its bucket's chain. */
  function link(ordinal: number): void {
    const records = block(ordinal);
    const at = offset(ordinal);
    const bucket = (records[at + 1] as number) & mask;
    records[at + 2] = heads[bucket] as number;
    heads[bucket] = ordinal + 1;
  }

  function grow(): void {
    heads = new Uint32Array(heads.length * 2);
    mask = heads.length - 1;
    for (let ordinal = 0; ordinal < size; ordinal++) link(ordinal);
  }

  function claim(key: string, line: number): number | undefined {
    hashKey(key, hashed);
    const h = hashed[0] as number;
    const l = hashed[1] as number;
    for (let next = heads[l & mask] as number; next !== 0;) {
      const records = block(next - 1);
      const at = offset(next - 1);
      if (records[at] === h && records[at + 1] === l) return lines.lineOf(next - 1);
      next = records[at + 2] as number;
    }
    if ((size & (BLOCK_KEYS - 1)) === 0) blocks.push(new Uint32Array(BLOCK_KEYS * RECORD));
    const records = block(size);
    const at = offset(size);
    records[at] = h;
    records[at + 1] = l;
    lines.add(size, line);
    link(size);
    size++;
    if (size > heads.length * MAX_LOAD) grow();
    return undefined;
  }

  return {
    claim,
    get size() {
      return size;
    },
  };
}
