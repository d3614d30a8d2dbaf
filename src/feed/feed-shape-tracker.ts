/**
 * Watches a feed's shape while it is read (src/domain/feed-shape.ts says why): which columns the
 * mapping reads, how many records have a value in each, and, for JSON, every member seen. Runs
 * per record, so it only indexes into arrays resolved when the feed was opened.
 */
import type { ColumnRead, FeedHeader, FeedShape, ShapeFormat } from '../domain/feed-shape.js';
import type { FieldRule } from './record-mapping.js';
import type { Column, SourceColumns, SourceRecord } from './source-record.js';

/** The columns `rules` read, once each (any case), with the fields each fills, in rule order. */
export function columnReads(rules: readonly FieldRule[]): ColumnRead[] {
  const byName = new Map<string, { column: string; fields: string[]; sparse: boolean }>();
  for (const rule of rules) {
    for (const column of rule.reads ?? []) {
      const key = column.trim().toLowerCase();
      const entry = byName.get(key) ?? { column, fields: [], sparse: true };
      if (!entry.fields.includes(rule.field)) entry.fields.push(rule.field);
      // A column is sparse only when every rule reading it says so.
      entry.sparse &&= rule.sparse === true;
      byName.set(key, entry);
    }
  }
  return [...byName.values()].map(({ column, fields, sparse }) => (sparse ? { column, fields, sparse } : { column, fields }));
}

/** What is known of the shape once the feed is open. */
export function feedHeader(format: ShapeFormat, columns: SourceColumns, rules: readonly FieldRule[]): FeedHeader {
  return { format, columns: [...columns.names], reads: columnReads(rules) };
}

/** A cell or member that holds something: not absent, null, blank text or an empty list. */
function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.length > 0 && (value.charCodeAt(0) > 32 || value.trim() !== '');
  return !Array.isArray(value) || value.length > 0;
}

interface Observer {
  (record: SourceRecord): void;
  /** The members seen (JSON). */
  members(): string[];
}

/** Counts the values of `looked` columns in CSV rows: one array read each. */
function csvObserver(looked: readonly { column: Column }[], filled: Uint32Array): Observer {
  const getters = looked.map((entry) => entry.column.get);
  const count = getters.length;
  const observe = (record: SourceRecord): void => {
    for (let i = 0; i < count; i++) if (hasValue((getters[i] as Column['get'])(record))) filled[i] = (filled[i] as number) + 1;
  };
  return Object.assign(observe, { members: () => [] });
}

/**
 * Counts the values of `looked` members in JSON records and collects every member seen. Why one
 * walk over each record's members: RESO servers omit null members, so the first record does not
 * list them all, and reading a member by name for each looked column costs more than the walk.
 */
function jsonObserver(looked: readonly { column: Column }[], filled: Uint32Array): Observer {
  const lookedIndex = new Map(looked.map((entry, i) => [entry.column.name, i]));
  const seen = new Map<string, number>();
  const observe = (record: SourceRecord): void => {
    const object = record as Readonly<Record<string, unknown>>;
    for (const member in object) {
      let i = seen.get(member);
      if (i === undefined) {
        i = lookedIndex.get(member) ?? -1;
        seen.set(member, i);
      }
      if (i >= 0 && hasValue(object[member])) filled[i] = (filled[i] as number) + 1;
    }
  };
  return Object.assign(observe, { members: () => [...seen.keys()] });
}

export interface ShapeTracker {
  /** Counts one mapped record. */
  observe(record: SourceRecord): void;
  /** The shape of the records observed so far. */
  shape(): FeedShape;
}

/**
 * Tracks the shape of records mapped by `rules`; `produced` is the compiled mapping's count of
 * values per rule (record-mapping.ts), read when the shape is asked for. Why not every column is
 * looked at per record: a column read alone by a plain column rule has a value exactly when that
 * rule gives one, so its count is the rule's; only columns computed rules read are looked at.
 */
export function shapeTracker(header: FeedHeader, columns: SourceColumns, rules: readonly FieldRule[], produced: Uint32Array): ShapeTracker {
  const ruleOfColumn = new Map<string, number>();
  rules.forEach((rule, i) => {
    const key = rule.column?.trim().toLowerCase();
    if (key !== undefined && !ruleOfColumn.has(key)) ruleOfColumn.set(key, i);
  });
  const countedBy = header.reads.map((read) => ruleOfColumn.get(read.column.trim().toLowerCase()));
  // Columns whose values are looked at per record: by index for CSV, by member name for JSON.
  const looked = header.reads.flatMap((read, i) => {
    const column = countedBy[i] === undefined ? columns.optional(read.column) : undefined;
    return column === undefined ? [] : [{ read: i, column }];
  });
  const filled = new Uint32Array(looked.length);
  const json = header.format === 'json';
  let rows = 0;
  const observe = json ? jsonObserver(looked, filled) : csvObserver(looked, filled);
  return {
    observe(record) {
      rows += 1;
      observe(record);
    },
    shape() {
      const fields: Record<string, number> = {};
      rules.forEach((rule, i) => {
        if ((rule.reads ?? []).length > 0) fields[rule.field] = produced[i] ?? 0;
      });
      const looks = new Map(looked.map((entry, i) => [entry.read, filled[i] ?? 0]));
      const rowsOf = (i: number): number => {
        const rule = countedBy[i];
        return rule === undefined ? (looks.get(i) ?? 0) : (produced[rule] ?? 0);
      };
      return {
        format: header.format,
        columns: json ? observe.members() : [...header.columns],
        reads: header.reads.map((read, i) => ({ ...read, rows: rowsOf(i) })),
        fields,
        rows,
      };
    },
  };
}
