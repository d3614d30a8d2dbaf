/**
 * A hand-written accept check equivalent to `listingFieldsSchema` for already-normalised values
 * (numbers as numbers, strings trimmed): the per-row hot path of a million-row feed. It only
 * ever says "valid" when zod would accept the values unchanged; anything else (including
 * values zod would transform, such as untrimmed text) goes to zod, which also words the reason.
 * test/unit/feed-quick-validate.test.ts checks the equivalence against zod on random values.
 */
import { AREA_UNITS, isWebUrl, LISTING_FIELD_NAMES, SALE_TYPES, SPACE_TYPES, STATUSES, TOURS } from '../domain/listing.js';

type Check = (value: unknown) => boolean;

const isNonNegative: Check = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isWholeNonNegative: Check = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isTrimmedText: Check = (value) => typeof value === 'string' && value.length > 0 && value.trim() === value;
const isText: Check = (value) => typeof value === 'string';
const between =
  (low: number, high: number): Check =>
  (value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= low && value <= high;
const memberOf = (values: readonly string[]): Check => {
  const allowed = new Set(values);
  return (value) => typeof value === 'string' && allowed.has(value);
};
const isWebUrlText: Check = (value) => isTrimmedText(value) && isWebUrl(value as string);
const isUrlList: Check = (value) => Array.isArray(value) && value.every((item) => typeof item === 'string' && isWebUrl(item));
const isExtensionList: Check = (value) =>
  Array.isArray(value) &&
  value.every((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
    const record = entry as Record<string, unknown>;
    // Extra members would be stripped by zod: not "unchanged", so not for the fast path.
    return typeof record.Key === 'string' && typeof record.value === 'string' && Object.keys(record).length === 2;
  });

const REQUIRED: Readonly<Record<string, Check>> = {
  SaleType: memberOf(SALE_TYPES),
  Status: memberOf(STATUSES),
  CurrencySymbol: isTrimmedText,
  PropertyType: isTrimmedText,
  Bedrooms: isNonNegative,
  Bathrooms: isNonNegative,
  Url: isWebUrlText,
  MLSNumber: isTrimmedText,
  YearBuilt: isWholeNonNegative,
  DaysOnMarket: isNonNegative,
  LotArea: isNonNegative,
  BuildingArea: isNonNegative,
  AreaUnit: memberOf(AREA_UNITS),
  ParkingSpots: isNonNegative,
};

const OPTIONAL: Readonly<Record<string, Check>> = {
  Images: isUrlList,
  Tours: memberOf(TOURS),
  Description: isText,
  ExtensionColumn: isExtensionList,
  Location: isText,
  Address: isText,
  City: isText,
  State: isText,
  ZIP: isText,
  Latitude: between(-90, 90),
  Longitude: between(-180, 180),
  SalePrice: isNonNegative,
  UnitAreaPrice: isNonNegative,
  HOAMonth: isNonNegative,
  ZestimatePrice: isNonNegative,
  RentPrice: isNonNegative,
  SpaceType: memberOf(SPACE_TYPES),
  DepositFee: isNonNegative,
};

const requiredFields = Object.keys(REQUIRED);
const requiredChecks = Object.values(REQUIRED);
const optionalFields = Object.keys(OPTIONAL);
const optionalChecks = Object.values(OPTIONAL);

// Why: if the write shape gains or loses a field, this table is stale; then every row goes to zod.
const covered = new Set([...Object.keys(REQUIRED), ...Object.keys(OPTIONAL)]);
const inSync = LISTING_FIELD_NAMES.length === covered.size && LISTING_FIELD_NAMES.every((name) => covered.has(name));

/**
 * True only when zod would accept `values` and return them unchanged. Precondition: every key
 * of `values` is a listing field (compileMapping only writes rule fields, which are), since
 * zod would strip any other key.
 */
export function quickValid(values: Record<string, unknown>): boolean {
  if (!inSync) return false;
  for (let i = 0; i < requiredFields.length; i++) {
    if (!(requiredChecks[i] as Check)(values[requiredFields[i] as string])) return false;
  }
  for (let i = 0; i < optionalFields.length; i++) {
    const value = values[optionalFields[i] as string];
    if (value !== undefined && !(optionalChecks[i] as Check)(value)) return false;
  }
  return true;
}
