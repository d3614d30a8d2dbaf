/**
 * Cell → value conversions shared by profiles and mapping files. A value that cannot be
 * converted is passed on as-is (or NaN for numbers) so the zod check rejects the row and
 * names the field; empty cells become undefined (absent).
 */
import type { ExtensionEntry } from '../domain/listing.js';

/** Trimmed text; numbers become their decimal text; empty → undefined. */
export function toText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  return value === null || value === undefined ? undefined : JSON.stringify(value);
}

/** A number from a cell ("3", "3.0", " 42 "); NaN when it is not one, undefined when empty. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return value === null || value === undefined ? undefined : Number.NaN;
  if (value.length === 0) return undefined;
  // Number() ignores surrounding whitespace itself; only a blank cell needs telling apart from "0".
  const number = Number(value);
  return number === 0 && value.trim() === '' ? undefined : number;
}

const MONEY_NOISE = /[$€£¥,\s]|USD|EUR|GBP/g;

/** A money amount: "$1,250,000", "1 250 000 €" → 1250000; NaN when it is not one. */
export function toMoney(value: unknown): number | undefined {
  const plain = toNumber(value);
  if (plain === undefined || !Number.isNaN(plain) || typeof value !== 'string') return plain;
  const cleaned = value.replace(MONEY_NOISE, '');
  return cleaned === '' ? Number.NaN : Number(cleaned);
}

/** A list of strings from a JSON array, JSON array text, or '|'-separated text. */
export function toList(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value;
  const text = toText(value);
  if (text === undefined) return undefined;
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * ExtensionColumn entries from a JSON array (text or value) of {Key, value}, or
 * '|'-separated "Key=value" pairs.
 */
export function toExtension(value: unknown): unknown {
  const list = toList(value);
  if (!Array.isArray(list) || list.length === 0 || typeof list[0] !== 'string') return list;
  const entries: ExtensionEntry[] = [];
  for (const pair of list as string[]) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return value;
    entries.push({ Key: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() });
  }
  return entries;
}
