/**
 * The content hash of a listing: what the ledger records after a write, so that a later run can
 * tell a change in a field the read shape does not show (AreaUnit, Location, ...) from no change.
 */
import { createHash } from 'node:crypto';
import { LISTING_FIELD_NAMES, type ListingFields } from './listing.js';

/**
 * Field names in code-unit order, computed once. Only the write shape's fields are hashed, so a
 * ListingWrite (which adds SerialNumber) hashes like the ListingFields it carries.
 */
const SORTED_FIELDS: readonly string[] = [...LISTING_FIELD_NAMES].sort(compareCodeUnits);

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Canonical number text: -0 is 0 and 3.0 is 3 (JS number text); non-finite numbers have no JSON form. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  return value === 0 ? '0' : String(value);
}

/** Characters JSON.stringify would escape; most listing text has none, so quoting is a concat. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringText(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** The canonical JSON of `value`, or undefined when the value is dropped (undefined, functions). */
function valueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return arrayText(value);
      return objectText(value as Record<string, unknown>, Object.keys(value).sort(compareCodeUnits));
    default:
      return undefined;
  }
}

function arrayText(items: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    // JSON writes an undefined array item as null; keeping the slot keeps positions meaningful.
    text += (i > 0 ? ',' : '') + (valueText(items[i]) ?? 'null');
  }
  return text + ']';
}

function objectText(record: Record<string, unknown>, keys: readonly string[]): string {
  let text = '{';
  for (const key of keys) {
    const value = record[key];
    if (value === undefined) continue;
    const written = valueText(value);
    if (written === undefined) continue;
    text += (text.length > 1 ? ',' : '') + stringText(key) + ':' + written;
  }
  return text + '}';
}

/** Canonical JSON of a listing: sorted keys, canonical numbers, undefined dropped, arrays in order. */
export function canonicalListingJson(listing: ListingFields): string {
  return objectText(listing as unknown as Record<string, unknown>, SORTED_FIELDS);
}

/** Stable content hash of a listing: sha256 hex of its canonical JSON (see canonicalListingJson). */
export function listingHash(listing: ListingFields): string {
  return createHash('sha256').update(canonicalListingJson(listing)).digest('hex');
}
