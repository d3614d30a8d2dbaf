/**
 * Turns a RealEstateList item (read shape, api-spec 2.4) into the write shape's types so the
 * planner can compare it with a feed listing. Only fields the read shape returns are set:
 * AreaUnit and Location never are. Empty text means "no value" and leaves the field absent.
 *
 * Empty is empty: this is the one place where the service's read forms of an unset optional
 * value are read, and every form reads as "no value" (absent): '', null, a member left out, and
 * for an optional number 0 (how the service reads back an unset Latitude/Longitude). So a feed
 * that leaves an optional field empty equals what the service shows for it, and an unchanged feed
 * costs no write. A field absent here is not compared (compare.ts); a feed that later sets it is
 * still written, because the ledger hash of what was written differs (planner.ts).
 */
import type { ListingFields } from '../domain/listing.js';
import type { RemoteListing } from '../domain/snapshot/remote.js';
import {
  memberText,
  noneIfZero,
  readCoordinate,
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

/** Same as normaliseReadItem, plus every value that was present but unreadable. */
export function normaliseReadItemWithIssues(item: ListingRead): NormalisedRead {
  const issues: ReadIssue[] = [];

  // The parsed value; records an issue when text was there but unreadable.
  function take<T>(field: keyof Staged, raw: string, parse: (value: string) => T | undefined): T | undefined {
    const value = parse(raw);
    if (value === undefined && raw.trim() !== '') issues.push({ field, value: raw });
    return value;
  }
  // An optional member: its forms of "no value" ('', null, left out) read alike (module comment).
  const text = (field: keyof Staged, raw: string | null | undefined): string | undefined => take(field, memberText(raw), readText);
  const amount = (field: keyof Staged, raw: string | number | null | undefined): number | undefined =>
    noneIfZero(take(field, memberText(raw), readNumber));

  // Issues are listed in this order: text fields, numbers, then the enumerations and lists.
  const staged: Staged = {
    CurrencySymbol: take('CurrencySymbol', item.CurrencySymbol, readText),
    PropertyType: take('PropertyType', item.PropertyType, readText),
    Url: take('Url', item.Url, readText),
    MLSNumber: take('MLSNumber', item.MLSNumber, readText),
    Description: text('Description', item.Description),
    Address: text('Address', item.Address),
    City: text('City', item.City),
    State: text('State', item.State),
    ZIP: text('ZIP', item.ZIP),
    Bedrooms: take('Bedrooms', item.Bedrooms, readNumber),
    Bathrooms: take('Bathrooms', item.Bathrooms, readNumber),
    YearBuilt: take('YearBuilt', item.YearBuilt, readNumber),
    DaysOnMarket: take('DaysOnMarket', item.DaysOnMarket, readNumber),
    LotArea: take('LotArea', item.LotArea, readNumber),
    BuildingArea: take('BuildingArea', item.BuildingArea, readNumber),
    ParkingSpots: take('ParkingSpots', item.ParkingSpots, readNumber),
    SalePrice: amount('SalePrice', item.SalePrice),
    RentPrice: amount('RentPrice', item.RentPrice),
    UnitAreaPrice: amount('UnitAreaPrice', item.UnitAreaPrice),
    HOAMonth: amount('HOAMonth', item.HOAMonth),
    ZestimatePrice: amount('ZestimatePrice', item.ZestimatePrice),
    DepositFee: amount('DepositFee', item.DepositFee),
    SaleType: take('SaleType', item.SaleType, readSaleType),
    Status: take('Status', item.Status, readStatus),
    Tours: take('Tours', memberText(item.Tours), readTours),
    SpaceType: take('SpaceType', memberText(item.SpaceType), readSpaceType),
    Images: take('Images', memberText(item.Images), readImages),
    ExtensionColumn: take('ExtensionColumn', memberText(item.ExtensionColumn), readExtensionColumn),
    Latitude: readCoordinate(item.LATITUDE),
    Longitude: readCoordinate(item.LONGITUDE),
  };

  // Why: Price is a display value; SalePrice/RentPrice are what we write. Price only fills the
  // one the SaleType calls for when the service left that one empty.
  const price = noneIfZero(readNumber(memberText(item.Price)));
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
