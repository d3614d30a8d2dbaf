/**
 * The column kinds of a RemoteTable (remote-table.ts). Each is filled row by row in ascending
 * order and read by row; a missing value reads as undefined.
 */

type TypedArray = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** `array` with room for `row`: grown to at least `capacity`, or by half, keeping its values. */
function roomFor<T extends TypedArray>(array: T, row: number, capacity: number, make: (length: number) => T): T {
  if (row < array.length) return array;
  const grown = make(Math.max(capacity, row + 1, Math.ceil(array.length * 1.5)));
  grown.set(array);
  return grown;
}

/** Rows per block of a ValueColumn. */
const BLOCK_SHIFT = 13;
const BLOCK = 1 << BLOCK_SHIFT;

/**
 * A column of plain values in blocks of 8,192 rows, allocated on its first present value
 * (undefined = absent). Why blocks: one array grown by push copies itself as it grows (1M rows:
 * an 8 MiB array and ~16 MiB of dead copies in large-object space per column); blocks never move.
 */
export class ValueColumn<T> {
  private readonly blocks: Array<Array<T | undefined> | undefined> = [];

  set(row: number, value: T | undefined): void {
    if (value === undefined) return;
    const index = row >>> BLOCK_SHIFT;
    let block = this.blocks[index];
    if (block === undefined) {
      while (this.blocks.length < index) this.blocks.push(undefined);
      block = new Array<T | undefined>(BLOCK).fill(undefined);
      this.blocks[index] = block;
    }
    block[row & (BLOCK - 1)] = value;
  }

  get(row: number): T | undefined {
    return this.blocks[row >>> BLOCK_SHIFT]?.[row & (BLOCK - 1)];
  }
}

/** Bytes per block of a TextBytesColumn; a longer value is kept as a string instead. */
const TEXT_BLOCK_BYTES = 1 << 20;
const NO_TEXT = 0xffffffff;

/**
 * A column of text with a value of its own per listing (Url, Address, Description …), kept as
 * UTF-8 bytes in 1 MiB blocks with a 4-byte start and a 2-byte length per row, read back as a
 * new string each time. Why: as strings, a ~75-character URL costs ~96 bytes of heap plus an
 * 8-byte slot; as bytes ~75 + 6. At 1M listings, Url and Address take ~55 MiB less.
 */
export class TextBytesColumn {
  private readonly blocks: Buffer[] = [];
  private starts: Uint32Array | undefined;
  private lengths: Uint16Array | undefined;
  /** Values longer than a block can hold or a length can say, by row (rare: long descriptions). */
  private readonly long = new Map<number, string>();
  private used = TEXT_BLOCK_BYTES;

  set(row: number, value: string | undefined, capacity: number): void {
    if (value === undefined) return;
    this.starts =
      this.starts === undefined
        ? new Uint32Array(Math.max(capacity, row + 1)).fill(NO_TEXT)
        : roomFor(this.starts, row, capacity, (n) => new Uint32Array(n).fill(NO_TEXT));
    this.lengths =
      this.lengths === undefined
        ? new Uint16Array(this.starts.length)
        : roomFor(this.lengths, row, this.starts.length, (n) => new Uint16Array(n));
    const length = Buffer.byteLength(value, 'utf8');
    if (length > 0xffff) {
      this.long.set(row, value);
      return;
    }
    if (this.used + length > TEXT_BLOCK_BYTES) {
      this.blocks.push(Buffer.allocUnsafe(TEXT_BLOCK_BYTES));
      this.used = 0;
    }
    const block = this.blocks.length - 1;
    // Starts are 32-bit: past 4 GiB of text (never seen) values stay strings.
    if (block * TEXT_BLOCK_BYTES + this.used + length > NO_TEXT - 1) {
      this.long.set(row, value);
      return;
    }
    (this.blocks[block] as Buffer).write(value, this.used, length, 'utf8');
    this.starts[row] = block * TEXT_BLOCK_BYTES + this.used;
    this.lengths[row] = length;
    this.used += length;
  }

  get(row: number): string | undefined {
    const start = this.starts?.[row];
    if (start === undefined || start === NO_TEXT) return this.long.get(row);
    const offset = start % TEXT_BLOCK_BYTES;
    const block = this.blocks[(start - offset) / TEXT_BLOCK_BYTES] as Buffer;
    return block.toString('utf8', offset, offset + (this.lengths?.[row] ?? 0));
  }
}

/**
 * A column of lists, 1 byte a row: absent, empty (the common case: the service shows an empty
 * Images or ExtensionColumn), or held in a map by row. An empty list reads as a new [] each time.
 */
export class ListColumn<T> {
  private kinds: Uint8Array | undefined;
  private readonly lists = new Map<number, readonly T[]>();

  set(row: number, value: readonly T[] | undefined, capacity: number): void {
    if (value === undefined) return;
    this.kinds =
      this.kinds === undefined ? new Uint8Array(Math.max(capacity, row + 1)) : roomFor(this.kinds, row, capacity, (n) => new Uint8Array(n));
    this.kinds[row] = value.length === 0 ? EMPTY : HELD;
    if (value.length > 0) this.lists.set(row, value);
  }

  /** A non-empty list is the one added (not a copy), as a plain column would give it. */
  get(row: number): readonly T[] | undefined {
    const kind = this.kinds?.[row];
    if (kind === EMPTY) return [];
    return kind === HELD ? this.lists.get(row) : undefined;
  }
}
const EMPTY = 1;
const HELD = 2;

/** Most distinct values a coded column holds before it falls back to plain values. */
const MAX_CODES = 0xfffe;

/**
 * Text with few distinct values across a chatbot (city, state, type, status …): each row holds a
 * 2-byte code into the distinct values (0 = absent) instead of an 8-byte pointer. A column that
 * turns out to have more than 65,534 distinct values becomes a plain ValueColumn from then on.
 */
export class CodedColumn {
  private codes: Uint16Array | undefined;
  private readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private plain: ValueColumn<string> | undefined;

  set(row: number, value: string | undefined, capacity: number): void {
    if (this.plain !== undefined) return this.plain.set(row, value);
    if (value === undefined) return;
    let code = this.index.get(value);
    if (code === undefined) {
      if (this.values.length >= MAX_CODES) {
        this.plain = this.toPlain(row);
        return this.plain.set(row, value);
      }
      code = this.values.push(value);
      this.index.set(value, code);
    }
    this.codes =
      this.codes === undefined
        ? new Uint16Array(Math.max(capacity, row + 1))
        : roomFor(this.codes, row, capacity, (n) => new Uint16Array(n));
    this.codes[row] = code;
  }

  get(row: number): string | undefined {
    if (this.plain !== undefined) return this.plain.get(row);
    const code = this.codes?.[row];
    return code === undefined || code === 0 ? undefined : this.values[code - 1];
  }

  private toPlain(rows: number): ValueColumn<string> {
    const plain = new ValueColumn<string>();
    for (let row = 0; row < rows; row++) plain.set(row, this.get(row));
    this.codes = undefined;
    this.index.clear();
    return plain;
  }
}

/** Marks an absent value in integer mode; never a value itself (see NumberColumn.fitsInt). */
const ABSENT_INT = -0x80000000;

/**
 * A column of numbers. Integers (bedrooms, year, days, prices …) are held as Int32 (4 bytes a
 * row, ABSENT_INT = absent) until the first value that is not one; from then on the column is
 * Float64 (NaN = absent; remote numbers are always finite), converted once.
 */
export class NumberColumn {
  private ints: Int32Array | undefined;
  private floats: Float64Array | undefined;

  set(row: number, value: number | undefined, capacity: number): void {
    if (value === undefined) return;
    if (this.floats === undefined && NumberColumn.fitsInt(value)) {
      this.ints =
        this.ints === undefined
          ? new Int32Array(Math.max(capacity, row + 1)).fill(ABSENT_INT)
          : roomFor(this.ints, row, capacity, (n) => new Int32Array(n).fill(ABSENT_INT));
      this.ints[row] = value;
      return;
    }
    if (this.floats === undefined) this.floats = this.toFloats(Math.max(capacity, row + 1));
    this.floats = roomFor(this.floats, row, capacity, (n) => new Float64Array(n).fill(Number.NaN));
    this.floats[row] = value;
  }

  get(row: number): number | undefined {
    if (this.floats !== undefined) {
      const value = this.floats[row];
      return value === undefined || Number.isNaN(value) ? undefined : value;
    }
    const value = this.ints?.[row];
    return value === undefined || value === ABSENT_INT ? undefined : value;
  }

  /** Why -0 is not an integer here: Int32 would give it back as 0, and a diff must see what was read. */
  private static fitsInt(value: number): boolean {
    return (value | 0) === value && value !== ABSENT_INT && !Object.is(value, -0);
  }

  private toFloats(length: number): Float64Array {
    const floats = new Float64Array(Math.max(length, this.ints?.length ?? 0)).fill(Number.NaN);
    const ints = this.ints;
    if (ints !== undefined) for (let row = 0; row < ints.length; row++) if (ints[row] !== ABSENT_INT) floats[row] = ints[row] as number;
    this.ints = undefined;
    return floats;
  }
}
