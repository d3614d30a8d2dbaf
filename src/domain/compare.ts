/**
 * Field-by-field comparison of a feed listing with what the service shows for it (the read
 * shape, normalised by the api layer). Only fields the remote carries are compared: a field the
 * read shape does not return cannot be compared, and the planner falls back on the ledger hash.
 */
import { LISTING_FIELD_NAMES, type ListingFields } from './listing.js';
import type { FieldChange } from './plan.js';
import { fieldsOfKind } from './listing-fields.js';

/** Fields whose value drifts daily without a real change; see diffListing. */
export const DEFAULT_VOLATILE_FIELDS: readonly string[] = ['DaysOnMarket'];

export interface CompareOptions {
  volatileFields: readonly string[];
}

/** Absolute tolerances per numeric field; the read shape returns numbers as rounded text. */
const COORDINATE_TOLERANCE = 1e-6;
const MONEY_TOLERANCE = 0.005;
const DEFAULT_TOLERANCE = 1e-9;
const NUMBER_TOLERANCE: Readonly<Record<string, number>> = {
  Latitude: COORDINATE_TOLERANCE,
  Longitude: COORDINATE_TOLERANCE,
  // Every money field of the field table (listing-fields.ts): cents are what a price is rounded to.
  ...Object.fromEntries([...fieldsOfKind('money')].map((field) => [field, MONEY_TOLERANCE])),
};

/** Enumerated text fields, compared ignoring case and separators ("Open House" = "OpenHouse"). */
const ENUM_FIELDS: ReadonlySet<string> = new Set(['Status', 'AreaUnit', 'Tours', 'SpaceType']);

/** Sentinel for "no value": undefined, null, '' (after trim) and empty arrays all mean absent. */
const ABSENT = undefined;

/**
 * The read shape returns SaleType in loose forms ("For Sale", "FOR_RENT", "rent"); anything
 * mentioning rent is for_rent, anything mentioning sale is for_sale.
 */
export function canonicalSaleType(text: string): string {
  const folded = text.trim().toLowerCase();
  if (folded.includes('rent')) return 'for_rent';
  if (folded.includes('sale')) return 'for_sale';
  return folded;
}

function foldEnum(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

function normalText(value: unknown): string | undefined {
  if (value === undefined || value === null) return ABSENT;
  const text = String(value).trim();
  return text === '' ? ABSENT : text;
}

function normalNumber(value: unknown): number | string | undefined {
  if (typeof value === 'number') return value;
  const text = normalText(value);
  if (text === undefined) return ABSENT;
  const parsed = Number(text.replace(/,/g, ''));
  // A non-numeric remote value is compared as text, so it shows up as a change rather than vanishing.
  return Number.isFinite(parsed) ? parsed : text;
}

function normalImages(value: unknown): string | undefined {
  if (!Array.isArray(value)) return normalText(value);
  const urls: string[] = [];
  for (const item of value) {
    const url = normalText(item);
    if (url !== undefined) urls.push(url);
  }
  // Joined with a character no URL holds unescaped, so the order matters and no two lists collide.
  return urls.length === 0 ? ABSENT : urls.join('\n');
}

function normalExtensions(value: unknown): string | undefined {
  if (!Array.isArray(value)) return normalText(value);
  const pairs: string[] = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object') continue;
    const entry = item as { Key?: unknown; value?: unknown };
    const key = normalText(entry.Key);
    if (key !== undefined) pairs.push(`${key}=${normalText(entry.value) ?? ''}`);
  }
  // Sorted: the service's serialised list does not promise to keep our order.
  pairs.sort();
  return pairs.length === 0 ? ABSENT : pairs.join('\n');
}

function textEqual(field: string, a: unknown, b: unknown): boolean {
  const left = normalText(a);
  const right = normalText(b);
  if (left === right) return true;
  if (left === undefined || right === undefined) return false;
  if (field === 'SaleType') return canonicalSaleType(left) === canonicalSaleType(right);
  return ENUM_FIELDS.has(field) && foldEnum(left) === foldEnum(right);
}

function numberEqual(field: string, a: unknown, b: unknown): boolean {
  const left = normalNumber(a);
  const right = normalNumber(b);
  if (left === right) return true;
  if (typeof left !== 'number' || typeof right !== 'number') return false;
  const tolerance = NUMBER_TOLERANCE[field] ?? DEFAULT_TOLERANCE * Math.max(1, Math.abs(left), Math.abs(right));
  return Math.abs(left - right) <= tolerance;
}

/** True when a feed value and a remote value of one field are the same after normalisation. */
export function fieldEqual(field: string, feedValue: unknown, remoteValue: unknown): boolean {
  if (field === 'Images') return normalImages(feedValue) === normalImages(remoteValue);
  if (field === 'ExtensionColumn') return normalExtensions(feedValue) === normalExtensions(remoteValue);
  if (typeof feedValue === 'number' || typeof remoteValue === 'number') return numberEqual(field, feedValue, remoteValue);
  return textEqual(field, feedValue, remoteValue);
}

/** Position of each write-shape field in LISTING_FIELD_NAMES: the order every diff is reported in. */
const FIELD_POSITION: ReadonlyMap<string, number> = new Map(LISTING_FIELD_NAMES.map((field, position) => [field, position]));

const byFieldPosition = (a: FieldChange, b: FieldChange): number => (FIELD_POSITION.get(a.field) ?? 0) - (FIELD_POSITION.get(b.field) ?? 0);

/**
 * The fields that differ between a feed listing and its remote copy (from = remote, to = feed).
 * Only write-shape fields present in `remote` (own keys) are compared; a present key whose value is undefined
 * means "shown and empty". Volatile fields never cause a change on their own: when only volatile
 * fields differ the result is empty; when something else differs too they are listed with it,
 * since the update sends the whole feed listing anyway. Changes come in write-shape field order.
 */
export function diffListing(feed: ListingFields, remote: Partial<ListingFields>, options: CompareOptions): FieldChange[] {
  // Allocated on the first difference: most listings have none (the planner diffs every one).
  let changes: FieldChange[] | undefined;
  let substantive = false;
  const feedRecord = feed as Readonly<Record<string, unknown>>;
  const remoteRecord = remote as Readonly<Record<string, unknown>>;
  // Why a for-in over the remote's keys rather than a walk over all 32 field names with hasOwn:
  // V8 reads `remoteRecord[field]` straight from the object's layout inside its own for-in, which
  // makes this the cheaper loop by far; the rare changes are put in field order afterwards.
  for (const field in remoteRecord) {
    if (!Object.hasOwn(remoteRecord, field) || !FIELD_POSITION.has(field)) continue;
    const from = remoteRecord[field];
    const to = feedRecord[field];
    // Identical values are equal under any normalisation; most fields take this fast path.
    if (to === from || fieldEqual(field, to, from)) continue;
    (changes ??= []).push({ field, from, to });
    if (!options.volatileFields.includes(field)) substantive = true;
  }
  if (!substantive || changes === undefined) return [];
  return changes.length > 1 ? changes.sort(byFieldPosition) : changes;
}
