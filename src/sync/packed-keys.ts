/**
 * The keys of a spooled plan (spooled-writes.ts), packed: every key's UTF-16 code units one after
 * another in one typed array, and where each ends. Why: a million keys held as strings were
 * about 32 bytes each (the string and its array slot) through the whole plan; packed, an ASCII
 * key of 8 characters is 12 bytes. Sorted by code units, which is compareText's order.
 *
 * The units are one byte each while every key is Latin-1 (the usual MLS number or listing key),
 * and two bytes each from the first key that is not (the keys packed so far are widened once).
 */

/** Keys added one at a time, read back by their ordinal and in key order. */
export interface PackedKeys {
  add(key: string): void;
  readonly length: number;
  /** The key added `ordinal`-th (0 first). */
  key(ordinal: number): string;
  /** The ordinals in key order (compareText's); equal keys next to each other. */
  sortedOrder(): Uint32Array;
  /** Whether the keys at two ordinals are equal. */
  same(a: number, b: number): boolean;
}

type Units = Uint8Array | Uint16Array;

function grown<T extends Units | Uint32Array>(array: T, needed: number, make: (size: number) => T): T {
  if (needed <= array.length) return array;
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

export function packedKeys(): PackedKeys {
  let units: Units = new Uint8Array(1024);
  let wide = false;
  /** ends[i + 1]: where key i's units end (ends[0] = 0). */
  let ends = new Uint32Array(1024);
  let count = 0;

  const makeUnits = (size: number): Units => (wide ? new Uint16Array(size) : new Uint8Array(size));

  function add(key: string): void {
    const start = ends[count] as number;
    if (!wide) for (let i = 0; i < key.length; i += 1) if (key.charCodeAt(i) > 0xff) wide = true;
    if (wide && units instanceof Uint8Array) units = Uint16Array.from(units);
    units = grown(units, start + key.length, makeUnits);
    for (let i = 0; i < key.length; i += 1) units[start + i] = key.charCodeAt(i);
    ends = grown(ends, count + 2, (size) => new Uint32Array(size));
    count += 1;
    ends[count] = start + key.length;
  }

  function compare(a: number, b: number): number {
    let i = ends[a] as number;
    let j = ends[b] as number;
    const endA = ends[a + 1] as number;
    const endB = ends[b + 1] as number;
    for (; i < endA && j < endB; i += 1, j += 1) {
      const d = (units[i] as number) - (units[j] as number);
      if (d !== 0) return d;
    }
    return endA - i - (endB - j);
  }

  return {
    add,
    get length() {
      return count;
    },
    key(ordinal) {
      let text = '';
      // In slices: fromCharCode takes each unit as an argument.
      for (let from = ends[ordinal] as number, end = ends[ordinal + 1] as number; from < end; from += 4096)
        text += String.fromCharCode(...units.subarray(from, Math.min(end, from + 4096)));
      return text;
    },
    sortedOrder() {
      const order = new Uint32Array(count);
      for (let i = 0; i < count; i += 1) order[i] = i;
      return order.sort(compare);
    },
    same: (a, b) => compare(a, b) === 0,
  };
}
