/**
 * A CSV whose header lacks a column a required field reads (renamed, or dropped): every row would
 * be rejected for the same reason, so the header is the one problem to report, once, before any
 * row is read. Only CSV: a JSON feed's columns come from its first record, and later records may
 * hold the member it lacks.
 */
import { listingFieldsSchema } from '../domain/listing.js';
import { didYouMean } from '../shared/nearest-names.js';
import type { RecordMapping } from './record-mapping.js';
import type { SourceColumns } from './source-record.js';

/** The required fields no header column gives a value (no column, no constant, no default). */
function requiredWithoutColumn(mapping: RecordMapping): string[] {
  return mapping.rules
    .filter((rule) => rule.column === undefined && rule.source.startsWith('no ') && rule.fallback === undefined)
    .filter((rule) => !listingFieldsSchema.shape[rule.field].safeParse(undefined).success)
    .map((rule) => rule.field);
}

/** One sentence naming the required fields the header lacks and the nearest header names; undefined when none. */
export function missingRequiredColumns(mapping: RecordMapping, columns: SourceColumns): string | undefined {
  const missing = requiredWithoutColumn(mapping);
  if (missing.length === 0) return undefined;
  const named = missing.map((field) => `${field}${didYouMean(field, columns.names)}`).join(', ');
  return `the header has no column for the required field${missing.length === 1 ? '' : 's'} ${named}, so every row would be rejected`;
}
