/**
 * The `redfin` profile: Redfin "Download All" CSV exports, current and older headers
 * (STATE / ZIP, a URL column whose name embeds another link), re-saved copies that write
 * integers as "3.0", and money as "$1,250,000".
 *
 * Policy (documented for users): real exports leave BEDS, BATHS, SQUARE FEET, LOT SIZE,
 * YEAR BUILT and DAYS ON MARKET empty on many rows, and have no parking column, while the
 * service requires all of them; those fields fall back to 0 and the feed's stats count each
 * fill, rather than rejecting most of a real feed.
 */
import type { SaleType, Status } from '../../domain/listing.js';
import { columnRule, computedRule, constantRule, reading, type FieldRule, type ProfileBuilder } from '../record-mapping.js';
import type { Column, SourceColumns, SourceRecord } from '../source-record.js';
import { toMoney, toText } from '../values.js';

/**
 * Every SALE TYPE Redfin exports, each mapped deliberately. "Redfin Data" is Redfin's own record
 * of a home not yet on the MLS (STATUS "Pre On-Market", SOURCE "Coming Soon"): a home for sale,
 * whose status the STATUS column gives. A past sale stays for_sale; its STATUS (or an empty one
 * with a SOLD DATE) makes it Sold.
 */
const SALE_TYPES: ReadonlyMap<string, SaleType> = new Map([
  ['mls listing', 'for_sale'],
  ['new construction home', 'for_sale'],
  ['new construction plan', 'for_sale'],
  ['for-sale-by-owner listing', 'for_sale'],
  ['for sale by owner', 'for_sale'],
  ['redfin data', 'for_sale'],
  ['past sale', 'for_sale'],
  ['for rent', 'for_rent'],
  ['rental', 'for_rent'],
]);

/** What a rejection of an unknown SALE TYPE lists as accepted (as Redfin spells them). */
const ACCEPTED_SALE_TYPES =
  'MLS Listing, New Construction Home, New Construction Plan, For-Sale-by-Owner Listing, Redfin Data, Past Sale, ' +
  'For Rent (any "For Rent …"), Rental';

// Why Contingent/Pending → Active: the home is still listed (under contract), as RESO ActiveUnderContract.
const STATUSES: ReadonlyMap<string, Status> = new Map([
  ['active', 'Active'],
  ['contingent', 'Active'],
  ['pending', 'Active'],
  ['under contract', 'Active'],
  ['active under contract', 'Active'],
  ['pre on-market', 'PreOnMarket'],
  ['pre-on-market', 'PreOnMarket'],
  ['coming soon', 'PreOnMarket'],
  ['sold', 'Sold'],
]);

/** "11646057.0" → "11646057": spreadsheet re-saves turn MLS numbers and ZIP codes into decimals. */
const WHOLE_DECIMAL = /^(\d+)\.0+$/;
function wholeText(value: unknown): string | undefined {
  const text = toText(value);
  if (text === undefined) return undefined;
  const match = WHOLE_DECIMAL.exec(text);
  return match === null ? text : match[1];
}

function firstColumn(columns: SourceColumns, ...names: string[]): Column | undefined {
  for (const name of names) {
    const column = columns.find(name);
    if (column !== undefined) return column;
  }
  return undefined;
}

/**
 * Whether a header is a Redfin export's: its MLS# column beside SALE TYPE or PROPERTY TYPE, or its
 * URL column's "(SEE https://www.redfin.com/…)". Lets a feed read under another profile be told to
 * use --profile redfin.
 */
export function looksLikeRedfinExport(columns: SourceColumns): boolean {
  const byNames =
    columns.find('MLS#') !== undefined && (columns.find('SALE TYPE') !== undefined || columns.find('PROPERTY TYPE') !== undefined);
  return byNames || columns.names.some((name) => /^url\b.*redfin\.com/i.test(name.trim()));
}

/** The listing URL column: "URL (SEE https://www.redfin.com/… FOR INFO ON PRICING)" and older spellings. */
export function redfinUrlColumn(columns: SourceColumns): Column | undefined {
  const name = columns.names.find((candidate) => /^url\b/i.test(candidate.trim()));
  return name === undefined ? undefined : columns.find(name);
}

function saleTypeReader(column: Column | undefined): (record: SourceRecord) => unknown {
  if (column === undefined) return () => undefined;
  // Three rules of the same record ask for its sale type: remember the last answer.
  let lastRecord: SourceRecord | undefined;
  let lastValue: unknown;
  return (record) => {
    if (record === lastRecord) return lastValue;
    const text = toText(column.get(record));
    const lower = text?.toLowerCase();
    // Rental exports name the type "For Rent", "For Rent - Apartment" …: anything starting with "for rent".
    lastValue = lower === undefined ? undefined : (SALE_TYPES.get(lower) ?? (lower.startsWith('for rent') ? 'for_rent' : text));
    lastRecord = record;
    return lastValue;
  };
}

export const buildRedfinMapping: ProfileBuilder = (columns) => {
  const col = (...names: string[]): Column | undefined => firstColumn(columns, ...names);
  const saleTypeColumn = col('SALE TYPE');
  const saleType = saleTypeReader(saleTypeColumn);
  const statusColumn = col('STATUS');
  const soldDate = col('SOLD DATE');
  const price = col('PRICE');
  const openHouse = col('NEXT OPEN HOUSE START TIME');
  const readStatus = (record: SourceRecord): unknown => {
    const text = statusColumn === undefined ? undefined : toText(statusColumn.get(record));
    if (text === undefined) {
      // An empty STATUS: sold when the row is a past sale, otherwise on the market.
      const sold =
        saleType(record) === 'for_sale' &&
        (toText(saleTypeColumn?.get(record))?.toLowerCase() === 'past sale' || toText(soldDate?.get(record)) !== undefined);
      return sold ? 'Sold' : 'Active';
    }
    return STATUSES.get(text.toLowerCase()) ?? text;
  };
  const priceRaw = (record: SourceRecord): unknown => price?.get(record);
  const priceFor =
    (wanted: SaleType) =>
    (record: SourceRecord): unknown =>
      saleType(record) === wanted ? toMoney(priceRaw(record)) : undefined;
  const rules: FieldRule[] = [
    reading(
      computedRule('SaleType', `column 'SALE TYPE', which accepts ${ACCEPTED_SALE_TYPES}`, saleType, (record) =>
        saleTypeColumn?.get(record),
      ),
      saleTypeColumn,
    ),
    reading(
      computedRule('Status', "column 'STATUS'", readStatus, (record) => statusColumn?.get(record)),
      statusColumn,
    ),
    constantRule('CurrencySymbol', '$'),
    columnRule('PropertyType', col('PROPERTY TYPE'), { label: 'PROPERTY TYPE' }),
    columnRule('Bedrooms', col('BEDS'), { fallback: 0 }),
    columnRule('Bathrooms', col('BATHS'), { fallback: 0 }),
    columnRule('Url', redfinUrlColumn(columns), { label: 'URL' }),
    columnRule('MLSNumber', col('MLS#', 'MLS #', 'MLS NUMBER'), { reader: wholeText, label: 'MLS#' }),
    columnRule('YearBuilt', col('YEAR BUILT'), { fallback: 0 }),
    columnRule('DaysOnMarket', col('DAYS ON MARKET'), { fallback: 0 }),
    columnRule('LotArea', col('LOT SIZE'), { fallback: 0 }),
    columnRule('BuildingArea', col('SQUARE FEET'), { fallback: 0 }),
    constantRule('AreaUnit', 'Square Feet'),
    // Sparse: a week without open houses leaves the column empty on every row of a healthy export.
    {
      ...reading(
        computedRule(
          'Tours',
          "column 'NEXT OPEN HOUSE START TIME'",
          (record) => (openHouse !== undefined && toText(openHouse.get(record)) !== undefined ? 'OpenHouse' : undefined),
          (record) => openHouse?.get(record),
        ),
        openHouse,
      ),
      sparse: true,
    },
    computedRule(
      'ParkingSpots',
      'no parking column in Redfin exports',
      () => undefined,
      () => undefined,
      0,
    ),
    columnRule('Location', col('LOCATION')),
    columnRule('Address', col('ADDRESS')),
    columnRule('City', col('CITY')),
    columnRule('State', col('STATE OR PROVINCE', 'STATE')),
    columnRule('ZIP', col('ZIP OR POSTAL CODE', 'ZIP', 'ZIP CODE', 'POSTAL CODE'), { reader: wholeText }),
    columnRule('Latitude', col('LATITUDE')),
    columnRule('Longitude', col('LONGITUDE')),
    reading(computedRule('SalePrice', "column 'PRICE'", priceFor('for_sale'), priceRaw), price),
    reading(computedRule('RentPrice', "column 'PRICE'", priceFor('for_rent'), priceRaw), price),
    columnRule('UnitAreaPrice', col('$/SQUARE FEET', '$/SQ. FT.', '$/SQFT')),
    columnRule('HOAMonth', col('HOA/MONTH', 'HOA')),
  ];
  return { rules };
};
