import { describe, expect, it } from 'vitest';
import { canonicalSaleType, DEFAULT_VOLATILE_FIELDS, diffListing } from '../../src/domain/compare.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { listing, shown } from '../helpers/planner-fixture.js';

const options = { volatileFields: DEFAULT_VOLATILE_FIELDS };

/** Diff of the fixture listing against a remote copy with some read-shape fields replaced. */
function diffWith(remoteOverrides: Record<string, unknown>, feedOverrides: Partial<ListingFields> = {}): string[] {
  const feed = listing('1', feedOverrides);
  const remote = { ...shown(listing('1')), ...remoteOverrides } as Partial<ListingFields>;
  return diffListing(feed, remote, options).map((change) => change.field);
}

describe('diffListing', () => {
  it('finds nothing between a listing and its own read-shape copy', () => {
    expect(diffListing(listing('1'), shown(listing('1')), options)).toEqual([]);
  });

  it('reports a changed field with from = remote and to = feed', () => {
    const changes = diffListing(listing('1', { SalePrice: 1_300_000 }), shown(listing('1')), options);
    expect(changes).toEqual([{ field: 'SalePrice', from: 1_250_000, to: 1_300_000 }]);
  });

  it('compares only fields the remote carries', () => {
    expect(diffWith({}, { AreaUnit: 'Square Meters', Location: 'Elsewhere' })).toEqual([]);
  });

  it('treats a present-but-empty remote field as absent', () => {
    expect(diffWith({ SalePrice: undefined })).toEqual(['SalePrice']);
    expect(diffWith({ Description: '' })).toEqual([]);
    expect(diffWith({ Description: '   ' }, { Description: '' })).toEqual([]);
  });

  it('uses tolerances: coordinates 1e-6, money 0.005, others near-exact', () => {
    expect(diffWith({ Latitude: 37.3382004, SalePrice: 1_250_000.004 })).toEqual([]);
    expect(diffWith({ Latitude: 37.33821 })).toEqual(['Latitude']);
    expect(diffWith({ SalePrice: 1_250_000.01 })).toEqual(['SalePrice']);
    expect(diffWith({ BuildingArea: 1450.001 })).toEqual(['BuildingArea']);
    expect(diffWith({ Bathrooms: 2.5 + 1e-12 })).toEqual([]);
  });

  it('compares numbers numerically even when the remote left them as text', () => {
    expect(diffWith({ Bedrooms: '3.0', SalePrice: '1,250,000' })).toEqual([]);
    expect(diffWith({ Bedrooms: 'three' })).toEqual(['Bedrooms']);
  });

  it('trims strings and canonicalises SaleType and enum spellings', () => {
    expect(diffWith({ City: '  San Jose ', SaleType: 'For Sale', Status: 'active' })).toEqual([]);
    expect(diffWith({ SaleType: 'FOR_RENT' })).toEqual(['SaleType']);
    expect(diffWith({ City: 'san jose' })).toEqual(['City']);
    expect(canonicalSaleType(' Rent ')).toBe('for_rent');
    expect(canonicalSaleType('for-sale')).toBe('for_sale');
  });

  it('compares Images as an ordered, trimmed list', () => {
    const feedImages = ['https://a/1.jpg', 'https://a/2.jpg'];
    expect(diffWith({ Images: [' https://a/1.jpg', 'https://a/2.jpg ', ''] }, { Images: feedImages })).toEqual([]);
    expect(diffWith({ Images: [...feedImages].reverse() }, { Images: feedImages })).toEqual(['Images']);
    expect(diffWith({ Images: [] }, { Images: undefined })).toEqual([]);
  });

  it('compares ExtensionColumn as a set of Key=value pairs', () => {
    const feed = [
      { Key: 'Pool', value: 'yes' },
      { Key: 'View', value: 'bay' },
    ];
    expect(diffWith({ ExtensionColumn: [...feed].reverse() }, { ExtensionColumn: feed })).toEqual([]);
    expect(diffWith({ ExtensionColumn: [{ Key: 'Pool', value: 'no' }, feed[1]] }, { ExtensionColumn: feed })).toEqual(['ExtensionColumn']);
  });

  it('never reports a volatile field on its own, but lists it beside a real change', () => {
    expect(diffWith({ DaysOnMarket: 40 })).toEqual([]);
    expect(diffWith({ DaysOnMarket: 40, City: 'Oakland' })).toEqual(['DaysOnMarket', 'City']);
    const custom = diffListing(listing('1'), { ...shown(listing('1')), DaysOnMarket: 40 }, { volatileFields: [] });
    expect(custom).toEqual([{ field: 'DaysOnMarket', from: 40, to: 12 }]);
  });
});
