/** What the simulated service answers, written from api-spec sections 2.4–2.6: types only, the simulator builds them. */

/** Section 2.5: the envelope of every answer. */
export interface Envelope<T> {
  Data: T;
  Version: string;
  Success: boolean;
  Code: number;
  Message: string;
}

/** Section 2.6: a project's data table. */
export interface ProjectTable {
  ID: number;
  TableName: string;
  TableDisplayName: string;
  FieldDefinitions: Array<{ FieldName: string; [member: string]: unknown }>;
}

/** Section 2.4: one element of RealEstateList's `Data.List` (most numbers as strings, '' for none). */
export type ListingRead = {
  ID: number;
  PropertyType: string;
  SaleType: string;
  Status: string;
  Images?: string | null;
  CurrencySymbol: string;
  Price?: string | number | null;
  State?: string | null;
  City?: string | null;
  Address?: string | null;
  ZIP?: string | null;
  Area?: string | number | null;
  Url: string;
  Tours?: string | null;
  Description?: string | null;
  SpaceType?: string | null;
  LATITUDE?: number | null;
  LONGITUDE?: number | null;
  Bathrooms: string;
  Bedrooms: string;
  YearBuilt: string;
  MLSNumber: string;
  DaysOnMarket: string;
  LotArea: string;
  BuildingArea: string;
  ParkingSpots: string;
  RentPrice?: string | number | null;
  DepositFee?: string | number | null;
  SalePrice?: string | number | null;
  UnitAreaPrice?: string | number | null;
  ZestimatePrice?: string | number | null;
  HOAMonth?: string | number | null;
  ExtensionColumn?: string | null;
};
