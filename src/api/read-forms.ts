/**
 * Parsers for the loose forms the read shape (api-spec 2.4) returns values in. Each returns
 * undefined for "no value" and for junk; none throws. Callers tell junk from empty by the input.
 */
import { SALE_TYPES, SPACE_TYPES, STATUSES, TOURS, type ExtensionEntry, type SaleType } from '../domain/listing.js';

/**
 * An optional member as text: null and a member left out are '' (no value), and a number member
 * sent as a JSON number is its decimal text. Why: the service renders an unset optional value as
 * '', null or not at all, and these must all read alike (an unchanged feed costs no write).
 */
export function memberText(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * An optional number as the service reads it back: 0 is no value. Why: the service reads an
 * unset Latitude or Longitude (and may read other unset optional numbers) back as 0, so 0 cannot
 * be told from unset; a feed that leaves the field empty must equal it, or every such listing is
 * rewritten on every run. A feed's explicit 0 is written as 0 and reads back as no value too.
 */
export function noneIfZero(value: number | undefined): number | undefined {
  return value === 0 ? undefined : value;
}

/** LATITUDE/LONGITUDE: a finite number other than 0 (null, absent and 0 are no value: see noneIfZero). */
export function readCoordinate(value: number | null | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? noneIfZero(value) : undefined;
}

/** Trimmed text, or undefined when empty/whitespace. */
export function readText(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * A number from text: "3.0" → 3, "1,250,000" and "$1,250,000" → 1250000, "1,200 sqft" → 1200.
 * Leading currency signs and trailing unit words are tolerated; anything else is junk.
 */
export function readNumber(value: string): number | undefined {
  const compact = value.replace(/[\s,]/g, '');
  if (compact === '') return undefined;
  const match = /^[^\d.+-]*([+-]?(?:\d+\.?\d*|\.\d+))[^\d.]*$/u.exec(compact);
  if (!match?.[1]) return undefined;
  const parsed = Number(match[1]);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Lower-case letters and digits only: "Pre On Market", "pre-on-market" → "preonmarket". */
function squash(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Looks a value up among allowed spellings, ignoring case, spaces, '-' and '_'. */
function pick<T extends string>(allowed: readonly T[], value: string): T | undefined {
  const key = squash(value);
  if (key === '') return undefined;
  return allowed.find((candidate) => squash(candidate) === key);
}

const SALE_TYPE_WORDS: Readonly<Record<string, SaleType>> = {
  forsale: 'for_sale',
  sale: 'for_sale',
  buy: 'for_sale',
  forrent: 'for_rent',
  rent: 'for_rent',
  rental: 'for_rent',
  lease: 'for_rent',
  forlease: 'for_rent',
};

/** 'for_sale', 'For Sale', 'Sale', 'Buy' … → for_sale; 'Rent', 'Lease', 'Rental' … → for_rent. */
export function readSaleType(value: string): SaleType | undefined {
  return SALE_TYPE_WORDS[squash(value)] ?? pick(SALE_TYPES, value);
}

export const readStatus = (value: string) => pick(STATUSES, value);
export const readTours = (value: string) => pick(TOURS, value);
export const readSpaceType = (value: string) => pick(SPACE_TYPES, value);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function unquote(text: string): string {
  return text
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim();
}

/** Image URLs from a JSON array, or a comma- or semicolon-separated list. '' → []. */
export function readImages(value: string): string[] | undefined {
  const text = value.trim();
  if (text === '') return [];
  if (text.startsWith('[')) {
    const parsed = parseJson(text);
    if (!parsed.ok || !Array.isArray(parsed.value)) return undefined;
    return parsed.value
      .filter((item): item is string => typeof item === 'string')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  const separator = text.includes(';') ? ';' : ',';
  return text
    .split(separator)
    .map(unquote)
    .filter((s) => s !== '');
}

function entryValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function readEntry(item: unknown): ExtensionEntry | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const key = record.Key ?? record.key;
  if (typeof key !== 'string') return undefined;
  return { Key: key, value: entryValue(record.value ?? record.Value) };
}

/** Key/value pairs from JSON [{Key,value}], [{key,value}] or {"k":"v"}. '' → []; junk → undefined. */
export function readExtensionColumn(value: string): ExtensionEntry[] | undefined {
  const text = value.trim();
  if (text === '') return [];
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  if (Array.isArray(parsed.value)) {
    const entries = parsed.value.map(readEntry);
    return entries.every((e): e is ExtensionEntry => e !== undefined) ? entries : undefined;
  }
  return Object.entries(parsed.value).map(([Key, v]) => ({ Key, value: entryValue(v) }));
}
