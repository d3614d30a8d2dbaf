/**
 * Turns a RealEstateList item (read shape, api-spec 2.4) into the write shape's types so the
 * planner can compare it with a feed listing. Only fields the read shape returns are set:
 * AreaUnit and Location never are. Empty text means "no value" and leaves the field absent.
 */
import type { ListingFields } from '../domain/listing.js';
import type { RemoteListing } from '../domain/snapshot/remote.js';
import { readExtensionColumn, readImages, readNumber, readSaleType, readSpaceType, readStatus, readText, readTours } from './read-forms.js';
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

type Fields = Partial<ListingFields>;

/** Every field the read shape can show (not AreaUnit, not Location), `undefined` where it held no readable value. */
type Staged = { [K in Exclude<keyof Fields, 'AreaUnit' | 'Location'>]-?: Fields[K] | undefined };

/**
 * The staged values with the undefined ones left out, stored by name in one fixed order.
 * Why written out: V8 keeps an object built by named stores as a fast-property object with a
 * shared shape; the same 24 fields stored by computed key (`fields[name] = …`) pass its limit
 * for keyed additions and turn each object into a dictionary, about three times the memory per
 * remote listing (1M listings: 2.3 GiB instead of under 1 GiB) and slower to read in the planner.
 * A present key means "shown by the read shape" (compare.ts), so absent values must stay absent.
 */
function presentFields(s: Staged): Fields {
  const f: Fields = {};
  if (s.CurrencySymbol !== undefined) f.CurrencySymbol = s.CurrencySymbol;
  if (s.PropertyType !== undefined) f.PropertyType = s.PropertyType;
  if (s.Url !== undefined) f.Url = s.Url;
  if (s.MLSNumber !== undefined) f.MLSNumber = s.MLSNumber;
  if (s.Description !== undefined) f.Description = s.Description;
  if (s.Address !== undefined) f.Address = s.Address;
  if (s.City !== undefined) f.City = s.City;
  if (s.State !== undefined) f.State = s.State;
  if (s.ZIP !== undefined) f.ZIP = s.ZIP;
  if (s.Bedrooms !== undefined) f.Bedrooms = s.Bedrooms;
  if (s.Bathrooms !== undefined) f.Bathrooms = s.Bathrooms;
  if (s.YearBuilt !== undefined) f.YearBuilt = s.YearBuilt;
  if (s.DaysOnMarket !== undefined) f.DaysOnMarket = s.DaysOnMarket;
  if (s.LotArea !== undefined) f.LotArea = s.LotArea;
  if (s.BuildingArea !== undefined) f.BuildingArea = s.BuildingArea;
  if (s.ParkingSpots !== undefined) f.ParkingSpots = s.ParkingSpots;
  if (s.SalePrice !== undefined) f.SalePrice = s.SalePrice;
  if (s.RentPrice !== undefined) f.RentPrice = s.RentPrice;
  if (s.UnitAreaPrice !== undefined) f.UnitAreaPrice = s.UnitAreaPrice;
  if (s.HOAMonth !== undefined) f.HOAMonth = s.HOAMonth;
  if (s.ZestimatePrice !== undefined) f.ZestimatePrice = s.ZestimatePrice;
  if (s.DepositFee !== undefined) f.DepositFee = s.DepositFee;
  if (s.SaleType !== undefined) f.SaleType = s.SaleType;
  if (s.Status !== undefined) f.Status = s.Status;
  if (s.Tours !== undefined) f.Tours = s.Tours;
  if (s.SpaceType !== undefined) f.SpaceType = s.SpaceType;
  if (s.Images !== undefined) f.Images = s.Images;
  if (s.ExtensionColumn !== undefined) f.ExtensionColumn = s.ExtensionColumn;
  if (s.Latitude !== undefined) f.Latitude = s.Latitude;
  if (s.Longitude !== undefined) f.Longitude = s.Longitude;
  return f;
}

function coordinate(value: number | null): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Same as normaliseReadItem, plus every value that was present but unreadable. */
export function normaliseReadItemWithIssues(item: ListingRead): NormalisedRead {
  const issues: ReadIssue[] = [];

  // The parsed value; records an issue when text was there but unreadable.
  function take<T>(field: keyof Staged, raw: string, parse: (value: string) => T | undefined): T | undefined {
    const value = parse(raw);
    if (value === undefined && raw.trim() !== '') issues.push({ field, value: raw });
    return value;
  }

  // Issues are listed in this order: text fields, numbers, then the enumerations and lists.
  const staged: Staged = {
    CurrencySymbol: take('CurrencySymbol', item.CurrencySymbol, readText),
    PropertyType: take('PropertyType', item.PropertyType, readText),
    Url: take('Url', item.Url, readText),
    MLSNumber: take('MLSNumber', item.MLSNumber, readText),
    Description: take('Description', item.Description, readText),
    Address: take('Address', item.Address, readText),
    City: take('City', item.City, readText),
    State: take('State', item.State, readText),
    ZIP: take('ZIP', item.ZIP, readText),
    Bedrooms: take('Bedrooms', item.Bedrooms, readNumber),
    Bathrooms: take('Bathrooms', item.Bathrooms, readNumber),
    YearBuilt: take('YearBuilt', item.YearBuilt, readNumber),
    DaysOnMarket: take('DaysOnMarket', item.DaysOnMarket, readNumber),
    LotArea: take('LotArea', item.LotArea, readNumber),
    BuildingArea: take('BuildingArea', item.BuildingArea, readNumber),
    ParkingSpots: take('ParkingSpots', item.ParkingSpots, readNumber),
    SalePrice: take('SalePrice', item.SalePrice, readNumber),
    RentPrice: take('RentPrice', item.RentPrice, readNumber),
    UnitAreaPrice: take('UnitAreaPrice', item.UnitAreaPrice, readNumber),
    HOAMonth: take('HOAMonth', item.HOAMonth, readNumber),
    ZestimatePrice: take('ZestimatePrice', item.ZestimatePrice, readNumber),
    DepositFee: take('DepositFee', item.DepositFee, readNumber),
    SaleType: take('SaleType', item.SaleType, readSaleType),
    Status: take('Status', item.Status, readStatus),
    Tours: take('Tours', item.Tours, readTours),
    SpaceType: take('SpaceType', item.SpaceType, readSpaceType),
    Images: take('Images', item.Images, readImages),
    ExtensionColumn: take('ExtensionColumn', item.ExtensionColumn, readExtensionColumn),
    Latitude: coordinate(item.LATITUDE),
    Longitude: coordinate(item.LONGITUDE),
  };

  // Why: Price is a display value; SalePrice/RentPrice are what we write. Price only fills the
  // one the SaleType calls for when the service left that one empty.
  const price = readNumber(item.Price);
  if (price !== undefined) {
    if (staged.SaleType === 'for_sale' && staged.SalePrice === undefined) staged.SalePrice = price;
    if (staged.SaleType === 'for_rent' && staged.RentPrice === undefined) staged.RentPrice = price;
  }

  return { listing: { id: String(item.ID), fields: presentFields(staged) }, issues };
}

/** The read item in the write shape's types (see module comment); never throws on junk values. */
export function normaliseReadItem(item: ListingRead): RemoteListing {
  return normaliseReadItemWithIssues(item).listing;
}
