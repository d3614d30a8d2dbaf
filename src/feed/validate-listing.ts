/**
 * The zod check of one mapped record against the write shape, and the sentence a person reads
 * when it fails: "Bedrooms: expected a number, got 'three' (column 'BEDS')".
 */
import type { z } from 'zod';
import { listingFieldsSchema, type ListingFields } from '../domain/listing.js';
import { quickValid } from './quick-validate.js';
import type { FieldRule } from './record-mapping.js';
import type { SourceRecord } from './source-record.js';

export type Checked =
  | { readonly ok: true; readonly listing: ListingFields }
  | { readonly ok: false; readonly field: string; readonly value: string; readonly reason: string };

type Issue = z.core.$ZodIssue;

/** How a source value is quoted in reasons and reports. */
export function showValue(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

function emptyReason(source: string): string {
  if (source === 'a constant') return 'required, but no value is set';
  return source.startsWith('no ') ? `required, but the feed has ${source}` : `required, but ${source} is empty`;
}

function problem(issue: Issue, shown: string, empty: boolean, source: string): string {
  const got = `got '${shown}'`;
  // An absent value fails whatever the field's type: say it is required.
  if (empty) return emptyReason(source);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'number') return `expected a number, ${got}`;
      if (issue.expected === 'int') return `expected a whole number, ${got}`;
      if (issue.expected === 'array') return `expected a list (a JSON array or '|'-separated values), ${got}`;
      return `expected ${issue.expected}, ${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}, ${got}`;
    case 'too_small':
      if (issue.origin === 'string') return emptyReason(source);
      return `must be at least ${String(issue.minimum)}, ${got}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}, ${got}`;
    default:
      return `${issue.message}, ${got}`;
  }
}

/** Validates mapped values; on failure, names the first bad field with the source value it came from. */
/**
 * Said when Url is required and empty. Why: many MLSs leave ListingURL empty, and a brokerage's
 * site links its listings by a pattern the mapping file can build (field-template.ts).
 */
const URL_FROM_TEMPLATE =
  'map a column that holds it, or build it from a pattern: "templates": {"Url": "https://…/{ListingId}"} in a --mapping file';

export function checkListing(values: Record<string, unknown>, record: SourceRecord, rulesByField: ReadonlyMap<string, FieldRule>): Checked {
  if (quickValid(values)) return { ok: true, listing: values as ListingFields };
  const result = listingFieldsSchema.safeParse(values);
  if (result.success) return { ok: true, listing: result.data };
  const issue = result.error.issues[0] as Issue;
  const field = String(issue.path[0] ?? '(record)');
  const rule = rulesByField.get(field);
  const raw = rule === undefined ? values[field] : rule.raw(record);
  const shown = showValue(raw);
  const empty = values[field] === undefined;
  const where = rule === undefined ? 'the record' : rule.source;
  const named = rule !== undefined && !empty && rule.source !== `column '${field}'` && rule.source !== 'a constant';
  const suffix = named ? ` (${where})` : '';
  const hint = field === 'Url' && empty && !where.startsWith('template ') ? `; ${URL_FROM_TEMPLATE}` : '';
  return { ok: false, field, value: shown, reason: `${field}: ${problem(issue, shown, empty, where)}${suffix}${hint}` };
}
