/**
 * A record mapping: one rule per write-shape field, built once from the source's columns by a
 * profile (and edited by a mapping file), then run for every record. Rules read by column
 * index or member name only; everything name-based happens when the mapping is built.
 */
import type { ListingFieldName, SyncKeyType } from '../domain/listing.js';
import { valueKindOf, READERS } from './value-kinds.js';
import { FIELD_SETTERS } from './field-setters.js';
import type { Column, SourceColumns, SourceRecord } from './source-record.js';

export interface FieldRule {
  readonly field: ListingFieldName;
  /** Where the value comes from, in the user's words ("column 'BEDS'"), for rejection reasons. */
  readonly source: string;
  /** The one source column the rule reads, when it reads exactly one (used to find key columns). */
  readonly column?: string;
  /**
   * Every source column whose values the field is made of (the feed's shape check watches them:
   * src/domain/feed-shape.ts); columns that only choose between others (a sale type) are left out.
   */
  readonly reads?: readonly string[];
  /** The columns read may be empty on every row of a healthy feed (an open-house time): no "emptied" check. */
  readonly sparse?: boolean;
  /** The source value as it was, reported with a rejection. */
  readonly raw: (record: SourceRecord) => unknown;
  /** The field's value, or undefined when the record has none. */
  readonly read: (record: SourceRecord) => unknown;
  /** Filled in, and counted in FeedStats.filledDefaults, when `read` gives undefined. */
  readonly fallback?: unknown;
  /**
   * Why the field is empty although the record has a value, when that value is legal but has no
   * write-shape equivalent (a one-time fee has no monthly amount); counted in FeedStats.leftEmpty.
   */
  readonly note?: (record: SourceRecord) => string | undefined;
}

export interface RecordMapping {
  readonly rules: FieldRule[];
  /** Why a record is not listed (it is then `excluded`, not rejected), or undefined. */
  readonly exclude?: (record: SourceRecord) => string | undefined;
}

export const PROFILE_NAMES = ['native', 'redfin', 'reso'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface ProfileContext {
  readonly keyType: SyncKeyType;
  readonly resoPending: 'active' | 'exclude';
}

/** A profile turns a source's columns into a record mapping. */
export type ProfileBuilder = (columns: SourceColumns, context: ProfileContext) => RecordMapping;

const nothing = (): undefined => undefined;

/** A rule reading one column with the field's default reader (or `reader`). A missing column reads as empty. */
export function columnRule(
  field: ListingFieldName,
  column: Column | undefined,
  options: { reader?: (value: unknown) => unknown; fallback?: unknown; label?: string } = {},
): FieldRule {
  const reader = options.reader ?? READERS[valueKindOf(field)];
  const fallback = options.fallback === undefined ? {} : { fallback: options.fallback };
  if (column === undefined) {
    return { field, source: `no ${options.label ?? field} column`, raw: nothing, read: nothing, ...fallback };
  }
  const get = column.get;
  return {
    field,
    source: `column '${column.name}'`,
    column: column.name,
    reads: [column.name],
    raw: get,
    read: (record) => reader(get(record)),
    ...fallback,
  };
}

/** `rule` reading the values of `columns` (those the source lacks are left out), for the shape check. */
export function reading(rule: FieldRule, ...columns: (Column | undefined)[]): FieldRule {
  return { ...rule, reads: columns.filter((column): column is Column => column !== undefined).map((column) => column.name) };
}

/** A rule that always gives the same value. */
export function constantRule(field: ListingFieldName, value: unknown): FieldRule {
  return { field, source: 'a constant', raw: () => value, read: () => value };
}

/** A rule computed from several columns; `raw` describes the inputs for rejections. */
export function computedRule(
  field: ListingFieldName,
  source: string,
  read: (record: SourceRecord) => unknown,
  raw: (record: SourceRecord) => unknown,
  fallback?: unknown,
  note?: (record: SourceRecord) => string | undefined,
): FieldRule {
  return { field, source, raw, read, ...(fallback === undefined ? {} : { fallback }), ...(note === undefined ? {} : { note }) };
}

/** Replaces the rule for `rule.field` (or adds it). */
export function setRule(mapping: RecordMapping, rule: FieldRule): void {
  const index = mapping.rules.findIndex((existing) => existing.field === rule.field);
  if (index >= 0) mapping.rules[index] = rule;
  else mapping.rules.push(rule);
}

export function ruleFor(mapping: RecordMapping, field: ListingFieldName): FieldRule | undefined {
  return mapping.rules.find((rule) => rule.field === field);
}

export interface CompiledMapping {
  readonly rules: readonly FieldRule[];
  /** Builds one record's field values; pushes the index (in `rules`) of each rule that fell back to its default. */
  readonly map: (record: SourceRecord, filled: number[]) => Record<string, unknown>;
  /** Per rule (index in `rules`), how many records `map` got a value for from the feed (defaults not counted). */
  readonly produced: Uint32Array;
}

/** Freezes the rules into the per-record function. */
export function compileMapping(mapping: RecordMapping): CompiledMapping {
  const rules = mapping.rules.slice();
  const count = rules.length;
  const setters = rules.map((rule) => {
    const setter = FIELD_SETTERS[rule.field] as (typeof FIELD_SETTERS)[ListingFieldName] | undefined;
    // Mapping files are validated against the write shape, so this is a programmer error.
    if (setter === undefined) throw new Error(`compileMapping: rule for unknown field ${String(rule.field)}`);
    return setter;
  });
  const produced = new Uint32Array(count);
  const map = (record: SourceRecord, filled: number[]): Record<string, unknown> => {
    const values: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) {
      const rule = rules[i] as FieldRule;
      let value = rule.read(record);
      if (value === undefined) {
        if (rule.fallback === undefined) continue;
        value = rule.fallback;
        filled.push(i);
      } else produced[i] = (produced[i] as number) + 1;
      (setters[i] as (typeof setters)[number])(values, value);
    }
    return values;
  };
  return { rules, map, produced };
}
