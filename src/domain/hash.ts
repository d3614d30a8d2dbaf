/**
 * The content hash of a listing: what the ledger records after a write, so that a later run can
 * tell a change in a field the read shape does not show (AreaUnit, Location, ...) from no change.
 */
import { hash } from 'node:crypto';
import type { ListingFields } from './listing.js';

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

/** Appends `"name":value` to an object's text unless the value is dropped. */
function member(text: string, nameText: string, value: unknown): string {
  if (value === undefined) return text;
  const written = valueText(value);
  if (written === undefined) return text;
  return text + (text.length > 1 ? ',' : '') + nameText + written;
}

/**
 * Canonical JSON of a listing: sorted keys, canonical numbers, undefined dropped, arrays in order.
 * Written out field by field in sorted order because named property reads are several times
 * faster than a keyed walk over a sorted name list (the 1M-listing benchmark hashes every row);
 * test/unit/hash.test.ts checks it against the generic writer so a new field cannot be missed.
 */
export function canonicalListingJson(listing: ListingFields): string {
  let text = '{';
  text = member(text, '"Address":', listing.Address);
  text = member(text, '"AreaUnit":', listing.AreaUnit);
  text = member(text, '"Bathrooms":', listing.Bathrooms);
  text = member(text, '"Bedrooms":', listing.Bedrooms);
  text = member(text, '"BuildingArea":', listing.BuildingArea);
  text = member(text, '"City":', listing.City);
  text = member(text, '"CurrencySymbol":', listing.CurrencySymbol);
  text = member(text, '"DaysOnMarket":', listing.DaysOnMarket);
  text = member(text, '"DepositFee":', listing.DepositFee);
  text = member(text, '"Description":', listing.Description);
  text = member(text, '"ExtensionColumn":', listing.ExtensionColumn);
  text = member(text, '"HOAMonth":', listing.HOAMonth);
  text = member(text, '"Images":', listing.Images);
  text = member(text, '"Latitude":', listing.Latitude);
  text = member(text, '"Location":', listing.Location);
  text = member(text, '"Longitude":', listing.Longitude);
  text = member(text, '"LotArea":', listing.LotArea);
  text = member(text, '"MLSNumber":', listing.MLSNumber);
  text = member(text, '"ParkingSpots":', listing.ParkingSpots);
  text = member(text, '"PropertyType":', listing.PropertyType);
  text = member(text, '"RentPrice":', listing.RentPrice);
  text = member(text, '"SalePrice":', listing.SalePrice);
  text = member(text, '"SaleType":', listing.SaleType);
  text = member(text, '"SpaceType":', listing.SpaceType);
  text = member(text, '"State":', listing.State);
  text = member(text, '"Status":', listing.Status);
  text = member(text, '"Tours":', listing.Tours);
  text = member(text, '"UnitAreaPrice":', listing.UnitAreaPrice);
  text = member(text, '"Url":', listing.Url);
  text = member(text, '"YearBuilt":', listing.YearBuilt);
  text = member(text, '"ZIP":', listing.ZIP);
  text = member(text, '"ZestimatePrice":', listing.ZestimatePrice);
  return text + '}';
}

/** Canonical JSON of any value (sorted object keys); the reference the listing writer must match. */
export function canonicalJson(value: unknown): string {
  return valueText(value) ?? 'null';
}

/** Stable content hash of a listing: sha256 hex of its canonical JSON (see canonicalListingJson). */
export function listingHash(listing: ListingFields): string {
  // One-shot crypto.hash: no Hash object per call (createHash allocates one), measurably faster at 1M calls.
  return hash('sha256', canonicalListingJson(listing), 'hex');
}
