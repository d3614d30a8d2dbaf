/**
 * One kind of planned write (creates, or updates) kept in a spool file: each item appended as
 * JSON when planned, only its key (packed-keys.ts), offset and length kept in memory, in typed
 * arrays; read back in key order, a run of items that lie next to each other in the file with
 * one read. JSON is what the items become anyway: a job's data is stored as JSON in Redis.
 */
import type { PlannedWrites } from '../domain/planned-writes-list.js';
import { repeatedKeyError } from '../domain/planned-writes.js';
import { packedKeys, type PackedKeys } from './packed-keys.js';
import type { SpoolFile } from './spool-file.js';

/** Most bytes read back in one call (a run of items adjacent in the file). */
const READ_BYTES = 1 << 20;

export interface SpooledWrites<T extends { key: string }> {
  add(item: T): void;
  /**
   * Everything added, by key (compareText); readable until the spool file is closed. Throws
   * repeatedKeyError for a key added twice. Call once.
   */
  finish(): PlannedWrites<T>;
}

/** `array` with room for `needed` items: itself, or a copy twice as large. */
function withRoom<T extends Float64Array | Uint32Array>(array: T, needed: number, make: (size: number) => T): T {
  if (needed <= array.length) return array;
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

export function spooledWrites<T extends { key: string }>(file: SpoolFile): SpooledWrites<T> {
  let keys: PackedKeys | undefined = packedKeys();
  // Why Float64Array: a spool file may outgrow 4 GiB (offsets are exact integers up to 2^53).
  let offsets = new Float64Array(1024);
  let lengths = new Uint32Array(1024);
  let count = 0;

  /** Items `order[from..]` adjacent in the file, up to READ_BYTES (one at least): the index past the run, and its bytes. */
  function runFrom(order: Uint32Array, from: number): { end: number; bytes: number } {
    let bytes = lengths[order[from] as number] as number;
    let end = from + 1;
    for (; end < order.length && bytes < READ_BYTES; end += 1) {
      const previous = order[end - 1] as number;
      const next = order[end] as number;
      if (offsets[next] !== (offsets[previous] as number) + (lengths[previous] as number)) break;
      bytes += lengths[next] as number;
    }
    return { end, bytes };
  }

  function* read(order: Uint32Array): Generator<T> {
    for (let from = 0; from < order.length;) {
      const { end, bytes } = runFrom(order, from);
      const buffer = file.read(offsets[order[from] as number] as number, bytes);
      let at = 0;
      for (let i = from; i < end; i += 1) {
        const length = lengths[order[i] as number] as number;
        // Why a cast: the spool holds only what add() wrote, in this process, as JSON.
        yield JSON.parse(buffer.toString('utf8', at, at + length)) as T;
        at += length;
      }
      from = end;
    }
  }

  return {
    add(item) {
      if (keys === undefined) throw new Error('spooledWrites: add after finish');
      const { offset, length } = file.append(JSON.stringify(item));
      keys.add(item.key);
      offsets = withRoom(offsets, count + 1, (size) => new Float64Array(size));
      lengths = withRoom(lengths, count + 1, (size) => new Uint32Array(size));
      offsets[count] = offset;
      lengths[count] = length;
      count += 1;
    },
    finish() {
      if (keys === undefined) throw new Error('spooledWrites: finish called twice');
      file.flush();
      const order = keys.sortedOrder();
      for (let i = 1; i < order.length; i += 1) {
        if (keys.same(order[i] as number, order[i - 1] as number)) throw repeatedKeyError(keys.key(order[i] as number));
      }
      // The keys are needed only to sort: the items carry them. The arrays lose their room to grow.
      keys = undefined;
      offsets = offsets.slice(0, count);
      lengths = lengths.slice(0, count);
      return { length: order.length, [Symbol.iterator]: () => read(order) };
    },
  };
}
