/**
 * What the readers hand to the profiles: one source record (a CSV row as an array of cells, or
 * a JSON object) and a way to find columns in it by name once, so the per-row path is an index
 * or property read.
 */

export type SourceRecord = readonly unknown[] | Readonly<Record<string, unknown>>;

/** One record out of a reader: its 1-based line (CSV, NDJSON) or record index (JSON array). */
export interface SourceItem {
  readonly line: number;
  readonly record: SourceRecord;
  /** Set when the record could not be read as a record at all (bad JSON, wrong cell count). */
  readonly problem?: string;
  /** The record's text when it is not JSON (or not an object): its key may still be read from it. */
  readonly text?: string;
}

export interface Column {
  /** The column's name as the source spells it. */
  readonly name: string;
  readonly get: (record: SourceRecord) => unknown;
}

/** The columns a source has (CSV header, or the first JSON record's keys). */
export interface SourceColumns {
  readonly names: readonly string[];
  /** Case-insensitive, trimmed lookup; undefined when the source has no such column. */
  find(name: string): Column | undefined;
  /**
   * Like `find`, but JSON sources return a column even when the first record lacks it
   * (RESO servers omit null members); CSV sources return undefined for a missing column.
   */
  optional(name: string): Column | undefined;
}

const normalise = (name: string): string => name.trim().toLowerCase();

/** Columns of a CSV header: each column reads one array cell by its index. */
export function csvColumns(header: readonly string[]): SourceColumns {
  const byName = new Map<string, Column>();
  header.forEach((name, index) => {
    const key = normalise(name);
    if (key !== '' && !byName.has(key)) byName.set(key, { name, get: (record) => (record as readonly unknown[])[index] });
  });
  const find = (name: string): Column | undefined => byName.get(normalise(name));
  return { names: header, find, optional: find };
}

/** Columns of JSON records: each column reads one member; names come from the first record. */
export function jsonColumns(first: Readonly<Record<string, unknown>>): SourceColumns {
  const names = Object.keys(first);
  const byName = new Map<string, string>();
  for (const name of names) if (!byName.has(normalise(name))) byName.set(normalise(name), name);
  const column = (name: string): Column => ({ name, get: (record) => (record as Readonly<Record<string, unknown>>)[name] });
  return {
    names,
    find: (name) => {
      const actual = byName.get(normalise(name));
      return actual === undefined ? undefined : column(actual);
    },
    optional: (name) => column(byName.get(normalise(name)) ?? name),
  };
}
