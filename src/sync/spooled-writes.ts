/**
 * One kind of planned write (creates, or updates) kept in a spool file: each item appended as
 * JSON when planned, only its key, offset and length kept in memory; read back in key order, a
 * run of items that lie next to each other in the file with one read. JSON is what the items
 * become anyway: a job's data is stored as JSON in Redis.
 */
import { compareText } from '../domain/id-order.js';
import type { PlannedWrites } from '../domain/planned-writes-list.js';
import type { SpoolFile } from './spool-file.js';

/** Most bytes read back in one call (a run of items adjacent in the file). */
const READ_BYTES = 1 << 20;

export interface SpooledWrites<T extends { key: string }> {
  add(item: T): void;
  /** Everything added, by key (compareText); readable until the spool file is closed. Call once. */
  finish(): PlannedWrites<T>;
}

export function spooledWrites<T extends { key: string }>(file: SpoolFile): SpooledWrites<T> {
  let keys: string[] = [];
  const offsets: number[] = [];
  const lengths: number[] = [];

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
      const { offset, length } = file.append(JSON.stringify(item));
      keys.push(item.key);
      offsets.push(offset);
      lengths.push(length);
    },
    finish() {
      file.flush();
      const order = Uint32Array.from(keys, (_, i) => i).sort((a, b) => compareText(keys[a] as string, keys[b] as string));
      // The keys are needed only to sort: the items carry them.
      keys = [];
      return { length: order.length, [Symbol.iterator]: () => read(order) };
    },
  };
}
