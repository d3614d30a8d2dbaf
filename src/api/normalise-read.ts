/**
 * Turns a RealEstateList item (read shape, api-spec 2.4) into the write shape's types so the
 * planner can compare it with a feed listing. Only fields the read shape returns are set:
 * AreaUnit and Location never are. Empty text means "no value" and leaves the field absent.
 */
import type { ListingFields } from '../domain/listing.js';
import type { RemoteListing } from '../domain/remote.js';
import {
  readExtensionColumn,
  readImages,
  readNumber,
  readSaleType,
  readSpaceType,
  readStatus,
  readText,
  readTours,
} from './read-forms.js';
import type { ListingRead } from './schemas.js';

/** A value the read shape held that no known form matched (reported by the caller, never thrown). */
export interface ReadIssue {
  field: string;
  value: string;
}

export interface NormalisedRead {
  listing: RemoteListing;
  issues: ReadIssue[];
}

const NUMBER_FIELDS = [
  'Bedrooms',
  'Bathrooms',
  'YearBuilt',
  'DaysOnMarket',
  'LotArea',
  'BuildingArea',
  'ParkingSpots',
  'SalePrice',
  'RentPrice',
  'UnitAreaPrice',
  'HOAMonth',
  'ZestimatePrice',
  'DepositFee',
] as const satisfies readonly (keyof ListingRead & keyof ListingFields)[];

const TEXT_FIELDS = [
  'CurrencySymbol',
  'PropertyType',
  'Url',
  'MLSNumber',
  'Description',
  'Address',
  'City',
  'State',
  'ZIP',
] as const satisfies readonly (keyof ListingRead & keyof ListingFields)[];

type Fields = Partial<ListingFields>;

/** Same as normaliseReadItem, plus every value that was present but unreadable. */
export function normaliseReadItemWithIssues(item: ListingRead): NormalisedRead {
  const fields: Fields = {};
  const issues: ReadIssue[] = [];

  // Sets the field when the parser read a value; records an issue when text was there but unreadable.
  function take<K extends keyof Fields>(field: K, raw: string, parse: (value: string) => Fields[K] | undefined): void {
    const value = parse(raw);
    if (value !== undefined) fields[field] = value;
    else if (raw.trim() !== '') issues.push({ field, value: raw });
  }

  for (const field of TEXT_FIELDS) take(field, item[field], readText);
  for (const field of NUMBER_FIELDS) take(field, item[field], readNumber);
  take('SaleType', item.SaleType, readSaleType);
  take('Status', item.Status, readStatus);
  take('Tours', item.Tours, readTours);
  take('SpaceType', item.SpaceType, readSpaceType);
  take('Images', item.Images, readImages);
  take('ExtensionColumn', item.ExtensionColumn, readExtensionColumn);
  if (typeof item.LATITUDE === 'number' && Number.isFinite(item.LATITUDE)) fields.Latitude = item.LATITUDE;
  if (typeof item.LONGITUDE === 'number' && Number.isFinite(item.LONGITUDE)) fields.Longitude = item.LONGITUDE;

  // Why: Price is a display value; SalePrice/RentPrice are what we write. Price only fills the
  // one the SaleType calls for when the service left that one empty.
  const price = readNumber(item.Price);
  if (price !== undefined) {
    if (fields.SaleType === 'for_sale' && fields.SalePrice === undefined) fields.SalePrice = price;
    if (fields.SaleType === 'for_rent' && fields.RentPrice === undefined) fields.RentPrice = price;
  }

  return { listing: { id: String(item.ID), fields }, issues };
}

/** The read item in the write shape's types (see module comment); never throws on junk values. */
export function normaliseReadItem(item: ListingRead): RemoteListing {
  return normaliseReadItemWithIssues(item).listing;
}
