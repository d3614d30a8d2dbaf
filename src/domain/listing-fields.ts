/**
 * The one table of the write shape's fields (api-spec 2.3): for each field, how a feed's value is
 * read (`kind`: src/feed/value-kinds.ts) and how the remote snapshot holds it (`column`:
 * snapshot/remote-table.ts). The lists of fields per kind and per column are derived from it;
 * `satisfies` makes the compiler refuse a field of the write shape that the table leaves out.
 */
import type { ListingFieldName } from './listing.js';

/** How a source value becomes the field's value: money also accepts "$1,250,000". */
export type FieldKind = 'text' | 'number' | 'money' | 'list' | 'extension';

/**
 * How the remote snapshot holds the field across a chatbot: `text` strings (a key the planner's
 * index shares), `bytes` UTF-8 (text of its own per listing), `coded` codes into few distinct
 * values, `number`, `list`.
 */
export type FieldColumn = 'text' | 'bytes' | 'coded' | 'number' | 'list';

export const LISTING_FIELDS = {
  SaleType: { kind: 'text', column: 'coded' },
  Status: { kind: 'text', column: 'coded' },
  CurrencySymbol: { kind: 'text', column: 'coded' },
  PropertyType: { kind: 'text', column: 'coded' },
  Bedrooms: { kind: 'number', column: 'number' },
  Bathrooms: { kind: 'number', column: 'number' },
  Url: { kind: 'text', column: 'bytes' },
  MLSNumber: { kind: 'text', column: 'text' },
  YearBuilt: { kind: 'number', column: 'number' },
  DaysOnMarket: { kind: 'number', column: 'number' },
  LotArea: { kind: 'number', column: 'number' },
  BuildingArea: { kind: 'number', column: 'number' },
  AreaUnit: { kind: 'text', column: 'coded' },
  Images: { kind: 'list', column: 'list' },
  Tours: { kind: 'text', column: 'coded' },
  ParkingSpots: { kind: 'number', column: 'number' },
  Description: { kind: 'text', column: 'bytes' },
  ExtensionColumn: { kind: 'extension', column: 'list' },
  Location: { kind: 'text', column: 'bytes' },
  Address: { kind: 'text', column: 'bytes' },
  City: { kind: 'text', column: 'coded' },
  State: { kind: 'text', column: 'coded' },
  ZIP: { kind: 'text', column: 'coded' },
  Latitude: { kind: 'number', column: 'number' },
  Longitude: { kind: 'number', column: 'number' },
  SalePrice: { kind: 'money', column: 'number' },
  UnitAreaPrice: { kind: 'money', column: 'number' },
  HOAMonth: { kind: 'money', column: 'number' },
  ZestimatePrice: { kind: 'money', column: 'number' },
  RentPrice: { kind: 'money', column: 'number' },
  SpaceType: { kind: 'text', column: 'coded' },
  DepositFee: { kind: 'money', column: 'number' },
} as const satisfies { readonly [K in ListingFieldName]: { readonly kind: FieldKind; readonly column: FieldColumn } };

type Table = typeof LISTING_FIELDS;

/** The fields the snapshot holds in columns of kind `C`. */
export type FieldsHeldAs<C extends FieldColumn> = { [K in keyof Table]: Table[K]['column'] extends C ? K : never }[keyof Table];

/** The fields the snapshot holds in columns of kind `column`, in the table's order. */
export function fieldsHeldAs<C extends FieldColumn>(column: C): readonly FieldsHeldAs<C>[] {
  return (Object.keys(LISTING_FIELDS) as (keyof Table)[]).filter((field) => LISTING_FIELDS[field].column === column) as FieldsHeldAs<C>[];
}

/** The fields read as `kind`. */
export function fieldsOfKind(kind: FieldKind): ReadonlySet<ListingFieldName> {
  return new Set((Object.keys(LISTING_FIELDS) as ListingFieldName[]).filter((field) => LISTING_FIELDS[field].kind === kind));
}
