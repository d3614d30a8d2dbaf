/** How a source value is read into each write-shape field when nothing more specific is known. */
import { LISTING_FIELD_NAMES, type ListingFieldName } from '../domain/listing.js';
import { toExtension, toList, toMoney, toNumber, toText } from './values.js';

export const VALUE_KINDS = ['text', 'number', 'money', 'list', 'extension'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

const MONEY_FIELDS: ReadonlySet<ListingFieldName> = new Set([
  'SalePrice',
  'UnitAreaPrice',
  'HOAMonth',
  'ZestimatePrice',
  'RentPrice',
  'DepositFee',
]);
const NUMBER_FIELDS: ReadonlySet<ListingFieldName> = new Set([
  'Bedrooms',
  'Bathrooms',
  'YearBuilt',
  'DaysOnMarket',
  'LotArea',
  'BuildingArea',
  'ParkingSpots',
  'Latitude',
  'Longitude',
]);

/** The kind of a write-shape field: money fields also accept "$1,250,000". */
export function valueKindOf(field: ListingFieldName): ValueKind {
  if (MONEY_FIELDS.has(field)) return 'money';
  if (NUMBER_FIELDS.has(field)) return 'number';
  if (field === 'Images') return 'list';
  if (field === 'ExtensionColumn') return 'extension';
  return 'text';
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
