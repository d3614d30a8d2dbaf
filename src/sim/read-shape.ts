/**
 * Renders a stored listing in the read shape of api-spec 2.4: numbers as strings ('' when
 * absent), SaleType and Images in a configurable form (the spec says the returned form may
 * differ from the request values), ExtensionColumn serialised, coordinates as numbers; an
 * optional field without a value in the form ReadForms.empty chooses (the service's by default).
 */
import type { SaleType } from './spec/requests.js';
import type { ListingRead } from './spec/responses.js';
import type { EmptyReadForm, ImagesReadForm, OptionalReadField, ReadForms, SaleTypeReadForm, StoredListing } from './types.js';

const SALE_TYPE_FORMS: Record<SaleTypeReadForm, Record<SaleType, string>> = {
  snake: { for_sale: 'for_sale', for_rent: 'for_rent' },
  title: { for_sale: 'For Sale', for_rent: 'For Rent' },
  lower: { for_sale: 'for sale', for_rent: 'for rent' },
  short: { for_sale: 'Sale', for_rent: 'Rent' },
};

export const SALE_TYPE_READ_FORMS = Object.keys(SALE_TYPE_FORMS) as SaleTypeReadForm[];
export const IMAGES_READ_FORMS = ['json', 'comma', 'semicolon'] as const satisfies readonly ImagesReadForm[];

const TEXT_EMPTY: readonly EmptyReadForm[] = ['blank', 'null', 'absent'];
const NUMBER_TEXT_EMPTY: readonly EmptyReadForm[] = ['zero', 'blank', 'null', 'absent'];

/**
 * The forms of "no value" each optional field may be rendered in, where the spec allows them: a
 * member typed as a number (LATITUDE, LONGITUDE) is 0, null or left out; a number sent as text
 * may also be "0" or ""; a text member is "", null or left out.
 */
export const EMPTY_READ_FORMS: Readonly<Record<OptionalReadField, readonly EmptyReadForm[]>> = {
  Images: TEXT_EMPTY,
  Tours: TEXT_EMPTY,
  Description: TEXT_EMPTY,
  ExtensionColumn: TEXT_EMPTY,
  Address: TEXT_EMPTY,
  City: TEXT_EMPTY,
  State: TEXT_EMPTY,
  ZIP: TEXT_EMPTY,
  Latitude: ['zero', 'null', 'absent'],
  Longitude: ['zero', 'null', 'absent'],
  SalePrice: NUMBER_TEXT_EMPTY,
  UnitAreaPrice: NUMBER_TEXT_EMPTY,
  HOAMonth: NUMBER_TEXT_EMPTY,
  ZestimatePrice: NUMBER_TEXT_EMPTY,
  RentPrice: NUMBER_TEXT_EMPTY,
  SpaceType: TEXT_EMPTY,
  DepositFee: NUMBER_TEXT_EMPTY,
};

/** The read member each optional field is shown in. */
const MEMBER: Readonly<Record<OptionalReadField, keyof ListingRead>> = {
  Images: 'Images',
  Tours: 'Tours',
  Description: 'Description',
  ExtensionColumn: 'ExtensionColumn',
  Address: 'Address',
  City: 'City',
  State: 'State',
  ZIP: 'ZIP',
  Latitude: 'LATITUDE',
  Longitude: 'LONGITUDE',
  SalePrice: 'SalePrice',
  UnitAreaPrice: 'UnitAreaPrice',
  HOAMonth: 'HOAMonth',
  ZestimatePrice: 'ZestimatePrice',
  RentPrice: 'RentPrice',
  SpaceType: 'SpaceType',
  DepositFee: 'DepositFee',
};

const OPTIONAL_FIELDS = Object.keys(MEMBER) as OptionalReadField[];

/** Why coordinates default to 0: the real service reads an unset Latitude/Longitude back as 0. */
const DEFAULT_EMPTY: Partial<Record<OptionalReadField, EmptyReadForm>> = { Latitude: 'zero', Longitude: 'zero' };

/** `forms`, or a throw when its `empty` names a field that is not optional or a form the field does not allow. */
export function checkedReadForms(forms: ReadForms): ReadForms {
  for (const [field, form] of Object.entries(forms.empty ?? {})) {
    const allowed = EMPTY_READ_FORMS[field as OptionalReadField] as readonly EmptyReadForm[] | undefined;
    if (allowed === undefined) throw new Error(`readForms.empty: ${field} is not an optional field the read shape shows`);
    if (!allowed.includes(form)) throw new Error(`readForms.empty: ${field} may be rendered empty as ${allowed.join(', ')}, not ${form}`);
  }
  return forms;
}

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

/** Renders every optional field `listing` has no value for in its empty form (the item is changed in place). */
function renderEmpty(item: Record<string, unknown>, listing: StoredListing, forms: ReadForms): void {
  for (const field of OPTIONAL_FIELDS) {
    if (listing[field] !== undefined) continue;
    const member = MEMBER[field];
    const form = forms.empty?.[field] ?? DEFAULT_EMPTY[field] ?? 'blank';
    if (form === 'absent') delete item[member];
    else if (form === 'null') item[member] = null;
    else if (form === 'zero') item[member] = typeof item[member] === 'string' ? '0' : 0;
    else item[member] = '';
  }
}

export function renderListing(listing: StoredListing, forms: ReadForms = {}): ListingRead {
  const price = listing.SaleType === 'for_sale' ? listing.SalePrice : listing.RentPrice;
  const item: ListingRead = {
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
  renderEmpty(item, listing, forms);
  return item;
}
