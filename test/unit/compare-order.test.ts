import { describe, expect, it } from 'vitest';
import { DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { listing } from '../helpers/planner-fixture.js';

describe('diffListing order and scope', () => {
  const feed: ListingFields = listing('1', { SalePrice: 500_000, Bedrooms: 3, City: 'Austin', DaysOnMarket: 4 });

  it('lists changes in write-shape field order whatever the remote key order', () => {
    const remote: Partial<ListingFields> = { City: 'Dallas', DaysOnMarket: 9, SalePrice: 400_000, MLSNumber: '1', Bedrooms: 2 };
    const fields = diffListing(feed, remote, { volatileFields: DEFAULT_VOLATILE_FIELDS }).map((change) => change.field);
    expect(fields).toEqual(['Bedrooms', 'DaysOnMarket', 'City', 'SalePrice']);
  });

  it('ignores keys outside the write shape and inherited ones', () => {
    const inherited = Object.create({ Bedrooms: 99 }) as Record<string, unknown>;
    inherited.SerialNumber = 'x';
    inherited.City = 'Austin';
    expect(diffListing(feed, inherited as Partial<ListingFields>, { volatileFields: DEFAULT_VOLATILE_FIELDS })).toEqual([]);
  });
});
