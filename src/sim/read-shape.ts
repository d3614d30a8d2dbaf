/**
 * Renders a stored listing in the read shape of api-spec 2.4: numbers as strings ('' when
 * absent), SaleType and Images in a configurable form (the spec says the returned form may
 * differ from the request values), ExtensionColumn serialised, coordinates as numbers or null.
 */
import type { ListingRead } from '../api/schemas.js';
import type { SaleType } from '../domain/listing.js';
import type { ImagesReadForm, ReadForms, SaleTypeReadForm, StoredListing } from './types.js';

const SALE_TYPE_FORMS: Record<SaleTypeReadForm, Record<SaleType, string>> = {
  snake: { for_sale: 'for_sale', for_rent: 'for_rent' },
  title: { for_sale: 'For Sale', for_rent: 'For Rent' },
  lower: { for_sale: 'for sale', for_rent: 'for rent' },
  short: { for_sale: 'Sale', for_rent: 'Rent' },
};

export const SALE_TYPE_READ_FORMS = Object.keys(SALE_TYPE_FORMS) as SaleTypeReadForm[];
export const IMAGES_READ_FORMS = ['json', 'comma', 'semicolon'] as const satisfies readonly ImagesReadForm[];

function renderImages(images: readonly string[] | undefined, form: ImagesReadForm): string {
  if (images === undefined) return '';
  if (form === 'json') return JSON.stringify(images);
  return images.join(form === 'comma' ? ',' : ';');
}

function num(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

function text(value: string | undefined): string {
  return value ?? '';
}

export function renderListing(listing: StoredListing, forms: ReadForms = {}): ListingRead {
  const price = listing.SaleType === 'for_sale' ? listing.SalePrice : listing.RentPrice;
  return {
    ID: Number(listing.ID),
    PropertyType: listing.PropertyType,
    SaleType: SALE_TYPE_FORMS[forms.saleType ?? 'title'][listing.SaleType],
    Status: listing.Status,
    Images: renderImages(listing.Images, forms.images ?? 'json'),
    CurrencySymbol: listing.CurrencySymbol,
    Price: num(price),
    State: text(listing.State),
    City: text(listing.City),
    Address: text(listing.Address),
    ZIP: text(listing.ZIP),
    Area: num(listing.BuildingArea),
    Url: listing.Url,
    Tours: text(listing.Tours),
    Description: text(listing.Description),
    SpaceType: text(listing.SpaceType),
    LATITUDE: listing.Latitude ?? null,
    LONGITUDE: listing.Longitude ?? null,
    Bathrooms: num(listing.Bathrooms),
    Bedrooms: num(listing.Bedrooms),
    YearBuilt: num(listing.YearBuilt),
    MLSNumber: listing.MLSNumber,
    DaysOnMarket: num(listing.DaysOnMarket),
    LotArea: num(listing.LotArea),
    BuildingArea: num(listing.BuildingArea),
    ParkingSpots: num(listing.ParkingSpots),
    RentPrice: num(listing.RentPrice),
    DepositFee: num(listing.DepositFee),
    SalePrice: num(listing.SalePrice),
    UnitAreaPrice: num(listing.UnitAreaPrice),
    ZestimatePrice: num(listing.ZestimatePrice),
    HOAMonth: num(listing.HOAMonth),
    ExtensionColumn: listing.ExtensionColumn === undefined ? '' : JSON.stringify(listing.ExtensionColumn),
  };
}
