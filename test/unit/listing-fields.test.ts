/**
 * The field table (domain/listing-fields.ts) is the one home of each field's kind and snapshot
 * column: it holds every field of the write shape, and what is derived from it is what the five
 * hand-kept lists said before.
 */
import { describe, expect, it } from 'vitest';
import { LISTING_FIELDS, fieldsHeldAs, fieldsOfKind } from '../../src/domain/listing-fields.js';
import { LISTING_FIELD_NAMES } from '../../src/domain/listing.js';
import { FIELD_SETTERS } from '../../src/feed/field-setters.js';
import { valueKindOf } from '../../src/feed/value-kinds.js';

const sorted = (names: Iterable<string>): string[] => [...names].sort();

describe('listing field table', () => {
  it('holds every field of the write shape, and a setter exists for each', () => {
    expect(sorted(Object.keys(LISTING_FIELDS))).toEqual(sorted(LISTING_FIELD_NAMES));
    expect(sorted(Object.keys(FIELD_SETTERS))).toEqual(sorted(LISTING_FIELD_NAMES));
    for (const field of LISTING_FIELD_NAMES) {
      const values: Record<string, unknown> = {};
      FIELD_SETTERS[field](values, 'x');
      expect(values).toEqual({ [field]: 'x' });
    }
  });

  it('derives the kinds a feed value is read as', () => {
    expect(sorted(fieldsOfKind('money'))).toEqual(
      sorted(['SalePrice', 'UnitAreaPrice', 'HOAMonth', 'ZestimatePrice', 'RentPrice', 'DepositFee']),
    );
    expect(sorted(fieldsOfKind('number'))).toEqual(
      sorted(['Bedrooms', 'Bathrooms', 'YearBuilt', 'DaysOnMarket', 'LotArea', 'BuildingArea', 'ParkingSpots', 'Latitude', 'Longitude']),
    );
    expect(valueKindOf('Images')).toBe('list');
    expect(valueKindOf('ExtensionColumn')).toBe('extension');
    expect(valueKindOf('City')).toBe('text');
  });

  it('derives the snapshot columns', () => {
    expect(fieldsHeldAs('text')).toEqual(['MLSNumber']);
    expect(sorted(fieldsHeldAs('bytes'))).toEqual(sorted(['Url', 'Description', 'Address', 'Location']));
    expect(sorted(fieldsHeldAs('coded'))).toEqual(
      sorted(['CurrencySymbol', 'PropertyType', 'City', 'State', 'ZIP', 'SaleType', 'Status', 'Tours', 'SpaceType', 'AreaUnit']),
    );
    expect(sorted(fieldsHeldAs('number'))).toEqual(sorted([...fieldsOfKind('number'), ...fieldsOfKind('money')]));
    expect(sorted(fieldsHeldAs('list'))).toEqual(['ExtensionColumn', 'Images']);
  });
});
