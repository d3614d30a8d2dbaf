/**
 * One store per write-shape field, by name. Why: a mapped record has up to 32 fields, and V8
 * turns an object that gets more than about 16 properties by computed key (`values[field] = v`)
 * into a slow dictionary; stores by name keep it a fast-property object with a shape shared by
 * every record of a feed, which the planner then reads and hashes a million times. Their type maps
 * every field of the write shape (domain/listing-fields.ts is the field table), so none is missed.
 */
import type { ListingFieldName } from '../domain/listing.js';

export type FieldSetter = (values: Record<string, unknown>, value: unknown) => void;

export const FIELD_SETTERS: { readonly [K in ListingFieldName]: FieldSetter } = {
  SaleType: (o, v) => void (o['SaleType'] = v),
  Status: (o, v) => void (o['Status'] = v),
  CurrencySymbol: (o, v) => void (o['CurrencySymbol'] = v),
  PropertyType: (o, v) => void (o['PropertyType'] = v),
  Bedrooms: (o, v) => void (o['Bedrooms'] = v),
  Bathrooms: (o, v) => void (o['Bathrooms'] = v),
  Url: (o, v) => void (o['Url'] = v),
  MLSNumber: (o, v) => void (o['MLSNumber'] = v),
  YearBuilt: (o, v) => void (o['YearBuilt'] = v),
  DaysOnMarket: (o, v) => void (o['DaysOnMarket'] = v),
  LotArea: (o, v) => void (o['LotArea'] = v),
  BuildingArea: (o, v) => void (o['BuildingArea'] = v),
  AreaUnit: (o, v) => void (o['AreaUnit'] = v),
  Images: (o, v) => void (o['Images'] = v),
  Tours: (o, v) => void (o['Tours'] = v),
  ParkingSpots: (o, v) => void (o['ParkingSpots'] = v),
  Description: (o, v) => void (o['Description'] = v),
  ExtensionColumn: (o, v) => void (o['ExtensionColumn'] = v),
  Location: (o, v) => void (o['Location'] = v),
  Address: (o, v) => void (o['Address'] = v),
  City: (o, v) => void (o['City'] = v),
  State: (o, v) => void (o['State'] = v),
  ZIP: (o, v) => void (o['ZIP'] = v),
  Latitude: (o, v) => void (o['Latitude'] = v),
  Longitude: (o, v) => void (o['Longitude'] = v),
  SalePrice: (o, v) => void (o['SalePrice'] = v),
  UnitAreaPrice: (o, v) => void (o['UnitAreaPrice'] = v),
  HOAMonth: (o, v) => void (o['HOAMonth'] = v),
  ZestimatePrice: (o, v) => void (o['ZestimatePrice'] = v),
  RentPrice: (o, v) => void (o['RentPrice'] = v),
  SpaceType: (o, v) => void (o['SpaceType'] = v),
  DepositFee: (o, v) => void (o['DepositFee'] = v),
};
