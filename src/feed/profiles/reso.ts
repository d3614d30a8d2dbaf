/**
 * The `reso` profile: RESO Data Dictionary records (OData JSON, arrays, NDJSON, or CSV with
 * RESO column names). Off-market statuses are excluded (not rejected): they are absent from
 * the feed, so a mirror sync deletes them. Numeric fields RESO leaves empty fall back to 0
 * like the redfin profile, and are counted.
 */
import type { SaleType } from '../../domain/listing.js';
import { columnRule, computedRule, constantRule, reading, type FieldRule, type ProfileBuilder } from '../record-mapping.js';
import type { Column, SourceRecord } from '../source-record.js';
import { toMoney, toNumber, toText } from '../values.js';
import {
  areaUnitOf,
  LEASE_TYPES,
  LISTED_STATUSES,
  monthlyFee,
  notMonthly,
  photoUrls,
  squareFeetPer,
  squash,
  UNLISTED_STATUSES,
} from './reso-values.js';

const readText = (column: Column | undefined, record: SourceRecord): string | undefined =>
  column === undefined ? undefined : toText(column.get(record));
const readNumber = (column: Column | undefined, record: SourceRecord): number | undefined =>
  column === undefined ? undefined : toNumber(column.get(record));

export const buildResoMapping: ProfileBuilder = (columns, context) => {
  const col = (name: string): Column | undefined => columns.optional(name);
  const status = col('StandardStatus');
  const propertyType = col('PropertyType');
  const subType = col('PropertySubType');
  const listPrice = col('ListPrice');
  const livingArea = col('LivingArea');
  const buildingAreaTotal = col('BuildingAreaTotal');
  const livingAreaUnits = col('LivingAreaUnits');
  const lotSqft = col('LotSizeSquareFeet');
  const lotArea = col('LotSizeArea');
  const lotUnits = col('LotSizeUnits');
  const bathsDecimal = col('BathroomsTotalDecimal');
  const bathsFull = col('BathroomsFull');
  const bathsHalf = col('BathroomsHalf');
  const bathsInteger = col('BathroomsTotalInteger');
  const fee = col('AssociationFee');
  const feeFrequency = col('AssociationFeeFrequency');
  const media = col('Media');
  const tour = col('VirtualTourURLUnbranded');
  const unparsed = col('UnparsedAddress');
  const streetParts = ['StreetNumber', 'StreetDirPrefix', 'StreetName', 'StreetSuffix', 'StreetDirSuffix'].map(col);
  const unit = col('UnitNumber');

  const saleType = (record: SourceRecord): SaleType => {
    const type = readText(propertyType, record);
    return type !== undefined && LEASE_TYPES.has(squash(type)) ? 'for_rent' : 'for_sale';
  };
  const readStatus = (record: SourceRecord): unknown => {
    const text = readText(status, record);
    if (text === undefined) return undefined;
    const key = squash(text);
    return LISTED_STATUSES.get(key) ?? (key === 'pending' ? 'Active' : text);
  };
  const canView = col('MlgCanView');
  const exclude = (record: SourceRecord): string | undefined => {
    // Why: MLS Grid marks a record its subscribers may no longer show with MlgCanView false.
    if (canView?.get(record) === false) return 'MlgCanView false: not viewable';
    const text = readText(status, record);
    if (text === undefined) return undefined;
    const key = squash(text);
    // Why: these listings are off the market; leaving them out of the feed lets a mirror sync delete them.
    if (UNLISTED_STATUSES.has(key)) return `StandardStatus ${text}: not listed`;
    if (key === 'pending' && context.resoPending === 'exclude') return `StandardStatus ${text}: not listed (Pending is excluded)`;
    return undefined;
  };
  const areaUnit = (record: SourceRecord): unknown => areaUnitOf(livingAreaUnits?.get(record));
  /** Square feet → the listing's AreaUnit (square metres when LivingAreaUnits says so). */
  const inAreaUnit = (record: SourceRecord, squareFeet: number): number =>
    areaUnit(record) === 'Square Meters' ? Math.round((squareFeet / (squareFeetPer('sqm') ?? 1)) * 100) / 100 : squareFeet;
  const readLot = (record: SourceRecord): unknown => {
    const sqft = readNumber(lotSqft, record);
    if (sqft !== undefined) return Number.isNaN(sqft) ? sqft : inAreaUnit(record, sqft);
    const area = readNumber(lotArea, record);
    if (area === undefined || Number.isNaN(area)) return area;
    const per = squareFeetPer(readText(lotUnits, record) ?? 'Square Feet');
    return per === undefined ? Number.NaN : inAreaUnit(record, Math.round(area * per * 100) / 100);
  };
  const readBaths = (record: SourceRecord): unknown => {
    const decimal = readNumber(bathsDecimal, record);
    if (decimal !== undefined) return decimal;
    const full = readNumber(bathsFull, record);
    const half = readNumber(bathsHalf, record);
    if (full === undefined && half === undefined) return readNumber(bathsInteger, record);
    return (full ?? 0) + 0.5 * (half ?? 0);
  };
  const readAddress = (record: SourceRecord): unknown => {
    const whole = readText(unparsed, record);
    if (whole !== undefined) return whole;
    const parts = streetParts.map((part) => readText(part, record)).filter((part) => part !== undefined);
    const unitNumber = readText(unit, record);
    if (unitNumber !== undefined) parts.push(`Unit ${unitNumber}`);
    return parts.length === 0 ? undefined : parts.join(' ');
  };
  const priceFor =
    (wanted: SaleType) =>
    (record: SourceRecord): unknown =>
      saleType(record) === wanted ? toMoney(listPrice?.get(record)) : undefined;
  const priceRaw = (record: SourceRecord): unknown => listPrice?.get(record);
  const describe =
    (...members: (Column | undefined)[]) =>
    (record: SourceRecord): string =>
      members
        .map((member) => toText(member?.get(record)))
        .filter((value) => value !== undefined)
        .join(' ');

  const rules: FieldRule[] = [
    reading(
      computedRule('SaleType', "member 'PropertyType'", saleType, (record) => propertyType?.get(record)),
      propertyType,
    ),
    reading(
      computedRule('Status', "member 'StandardStatus'", readStatus, (record) => status?.get(record)),
      status,
    ),
    constantRule('CurrencySymbol', '$'),
    reading(
      computedRule(
        'PropertyType',
        "member 'PropertySubType'/'PropertyType'",
        (record) => readText(subType, record) ?? readText(propertyType, record),
        (record) => propertyType?.get(record),
      ),
      subType,
      propertyType,
    ),
    columnRule('Bedrooms', col('BedroomsTotal'), { fallback: 0 }),
    reading(
      computedRule(
        'Bathrooms',
        "members 'BathroomsTotalDecimal'/'BathroomsFull'+'BathroomsHalf'",
        readBaths,
        describe(bathsDecimal, bathsFull, bathsHalf),
        0,
      ),
      bathsDecimal,
      bathsFull,
      bathsHalf,
      bathsInteger,
    ),
    columnRule('Url', col('ListingURL')),
    columnRule('MLSNumber', col('ListingId')),
    columnRule('YearBuilt', col('YearBuilt'), { fallback: 0 }),
    columnRule('DaysOnMarket', col('DaysOnMarket'), { fallback: 0 }),
    reading(
      computedRule('LotArea', "members 'LotSizeSquareFeet'/'LotSizeArea'+'LotSizeUnits'", readLot, describe(lotSqft, lotArea, lotUnits), 0),
      lotSqft,
      lotArea,
    ),
    reading(
      computedRule(
        'BuildingArea',
        "member 'LivingArea'/'BuildingAreaTotal'",
        (record) => readNumber(livingArea, record) ?? readNumber(buildingAreaTotal, record),
        describe(livingArea, buildingAreaTotal),
        0,
      ),
      livingArea,
      buildingAreaTotal,
    ),
    reading(
      computedRule('AreaUnit', "member 'LivingAreaUnits'", areaUnit, (record) => livingAreaUnits?.get(record)),
      livingAreaUnits,
    ),
    reading(
      computedRule(
        'Images',
        "member 'Media'",
        (record) => photoUrls(media?.get(record)),
        (record) => media?.get(record),
      ),
      media,
    ),
    reading(
      computedRule(
        'Tours',
        "member 'VirtualTourURLUnbranded'",
        (record) => (readText(tour, record) === undefined ? undefined : '3D'),
        (record) => tour?.get(record),
      ),
      tour,
    ),
    columnRule('ParkingSpots', col('ParkingTotal'), { fallback: 0 }),
    columnRule('Description', col('PublicRemarks')),
    reading(
      computedRule('Address', "member 'UnparsedAddress'", readAddress, (record) => unparsed?.get(record)),
      unparsed,
      ...streetParts,
      unit,
    ),
    columnRule('City', col('City')),
    columnRule('State', col('StateOrProvince')),
    columnRule('ZIP', col('PostalCode')),
    columnRule('Latitude', col('Latitude')),
    columnRule('Longitude', col('Longitude')),
    reading(computedRule('SalePrice', "member 'ListPrice'", priceFor('for_sale'), priceRaw), listPrice),
    reading(computedRule('RentPrice', "member 'ListPrice'", priceFor('for_rent'), priceRaw), listPrice),
    reading(
      computedRule(
        'HOAMonth',
        "members 'AssociationFee'+'AssociationFeeFrequency'",
        (record) => monthlyFee(fee?.get(record), feeFrequency?.get(record)),
        describe(fee, feeFrequency),
        undefined,
        (record) => (fee?.get(record) === undefined ? undefined : notMonthly(feeFrequency?.get(record))),
      ),
      fee,
    ),
  ];
  return { rules, exclude };
};
