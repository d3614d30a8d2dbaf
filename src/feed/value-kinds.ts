/** How a source value is read into each write-shape field when nothing more specific is known. */
import { LISTING_FIELDS, type FieldKind } from '../domain/listing-fields.js';
import { LISTING_FIELD_NAMES, type ListingFieldName } from '../domain/listing.js';
import { toExtension, toList, toMoney, toNumber, toText } from './values.js';

export const VALUE_KINDS = ['text', 'number', 'money', 'list', 'extension'] as const satisfies readonly FieldKind[];
export type ValueKind = FieldKind;

/** The kind of a write-shape field (the field table's, domain/listing-fields.ts): money fields also accept "$1,250,000". */
export function valueKindOf(field: ListingFieldName): ValueKind {
  return LISTING_FIELDS[field].kind;
}

export function isNumericField(field: ListingFieldName): boolean {
  const kind = valueKindOf(field);
  return kind === 'number' || kind === 'money';
}

export const READERS: Readonly<Record<ValueKind, (value: unknown) => unknown>> = {
  text: toText,
  number: toNumber,
  money: toMoney,
  list: toList,
  extension: toExtension,
};

const FIELD_BY_LOWER = new Map(LISTING_FIELD_NAMES.map((name) => [name.toLowerCase(), name] as const));

/** The write-shape field with this name, ignoring case; undefined when there is none. */
export function fieldNamed(name: string): ListingFieldName | undefined {
  return FIELD_BY_LOWER.get(name.trim().toLowerCase());
}
