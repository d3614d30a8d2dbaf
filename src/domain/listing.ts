/**
 * The listing model: the service's write shape (api-spec 2.3) as a zod schema, and the
 * enumerations it uses. Pure: imported by feed, api, planner and jobs alike.
 */
import { z } from 'zod';

export const SALE_TYPES = ['for_sale', 'for_rent'] as const;
export const STATUSES = ['Active', 'PreOnMarket', 'Sold'] as const;
export const AREA_UNITS = ['Square Feet', 'Square Meters'] as const;
export const TOURS = ['OpenHouse', '3D'] as const;
export const SPACE_TYPES = ['Entire place', 'Room'] as const;
/** Identifier kinds accepted by update (KeyType) and delete. NewOaks = the service-issued ID. */
export const KEY_TYPES = ['NewOaks', 'MLSNumber', 'URL'] as const;
/** Key types a sync may match feed rows by. */
export const SYNC_KEY_TYPES = ['MLSNumber', 'URL'] as const;

export type SaleType = (typeof SALE_TYPES)[number];
export type Status = (typeof STATUSES)[number];
export type KeyType = (typeof KEY_TYPES)[number];
export type SyncKeyType = (typeof SYNC_KEY_TYPES)[number];

const finite = z.number().finite();

/**
 * An absolute http(s) URL with a host, scheme in any case. Why only these: Url and Images are
 * shown as links and images to the chatbot's visitors, so `javascript:`, `data:`, `file:`, `ftp:`
 * or a scheme-relative `//host` value would be a script or a file the tool planted there.
 */
export function isWebUrl(value: string): boolean {
  return WEB_URL.test(value);
}
// The scheme, then a host up to the path, query or fragment: what follows is the site's own business.
const WEB_URL = /^https?:\/\/[^\s/?#\\]+(?:[/?#]|$)/i;
const WEB_URL_MESSAGE = 'expected an http:// or https:// URL';

export const extensionEntrySchema = z.object({ Key: z.string(), value: z.string() });
export type ExtensionEntry = z.infer<typeof extensionEntrySchema>;

/** Fields shared by create and update (api-spec 2.3), minus the chatbot id. */
export const listingFieldsSchema = z.object({
  SaleType: z.enum(SALE_TYPES),
  Status: z.enum(STATUSES),
  CurrencySymbol: z.string().trim().min(1),
  PropertyType: z.string().trim().min(1),
  Bedrooms: finite.nonnegative(),
  Bathrooms: finite.nonnegative(),
  Url: z.string().trim().min(1).refine(isWebUrl, WEB_URL_MESSAGE),
  MLSNumber: z.string().trim().min(1),
  YearBuilt: finite.int().nonnegative(),
  DaysOnMarket: finite.nonnegative(),
  LotArea: finite.nonnegative(),
  BuildingArea: finite.nonnegative(),
  AreaUnit: z.enum(AREA_UNITS),
  Images: z.array(z.string().refine(isWebUrl, WEB_URL_MESSAGE)).optional(),
  Tours: z.enum(TOURS).optional(),
  ParkingSpots: finite.nonnegative(),
  Description: z.string().optional(),
  ExtensionColumn: z.array(extensionEntrySchema).optional(),
  Location: z.string().optional(),
  Address: z.string().optional(),
  City: z.string().optional(),
  State: z.string().optional(),
  ZIP: z.string().optional(),
  Latitude: finite.min(-90).max(90).optional(),
  Longitude: finite.min(-180).max(180).optional(),
  SalePrice: finite.nonnegative().optional(),
  UnitAreaPrice: finite.nonnegative().optional(),
  HOAMonth: finite.nonnegative().optional(),
  ZestimatePrice: finite.nonnegative().optional(),
  RentPrice: finite.nonnegative().optional(),
  SpaceType: z.enum(SPACE_TYPES).optional(),
  DepositFee: finite.nonnegative().optional(),
});

/** A listing as the feed describes it, without the chatbot it belongs to. */
export type ListingFields = z.infer<typeof listingFieldsSchema>;
export type ListingFieldName = keyof ListingFields;
export const LISTING_FIELD_NAMES = Object.keys(listingFieldsSchema.shape) as ListingFieldName[];

/** The create request body (api-spec 2.3 with SerialNumber). */
export const listingWriteSchema = listingFieldsSchema.extend({ SerialNumber: z.string().trim().min(1) });
export type ListingWrite = z.infer<typeof listingWriteSchema>;

/** The update request body: the write shape plus the Key/KeyType selector (api-spec 2.3, 4.4.3). */
export const listingUpdateSchema = listingWriteSchema.extend({
  Key: z.string().min(1),
  KeyType: z.enum(KEY_TYPES),
});
export type ListingUpdate = z.infer<typeof listingUpdateSchema>;

/** The value of a listing's key under a key type (MLSNumber or Url). */
export function listingKey(listing: Pick<ListingFields, 'MLSNumber' | 'Url'>, keyType: SyncKeyType): string {
  return keyType === 'MLSNumber' ? listing.MLSNumber : listing.Url;
}
