import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalJson,
  canonicalListingJson,
  fieldDigests,
  fieldsChanged,
  hashParts,
  listingHash,
  recordedHash,
} from '../../src/domain/hash.js';
import { LISTING_FIELD_NAMES, type ListingFields } from '../../src/domain/listing.js';
import { listing } from '../helpers/planner-fixture.js';

describe('listingHash', () => {
  it('is a sha256 hex digest that ignores key order and undefined fields', () => {
    const a = listing('100');
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as ListingFields;
    const withUndefined: ListingFields = { ...a, Description: undefined, Tours: undefined };
    expect(listingHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(listingHash(reordered)).toBe(listingHash(a));
    expect(listingHash(withUndefined)).toBe(listingHash(a));
  });

  it('normalises numbers (-0 is 0) and keeps array order', () => {
    expect(listingHash(listing('1', { LotArea: -0 }))).toBe(listingHash(listing('1', { LotArea: 0 })));
    const images = ['https://a/1.jpg', 'https://a/2.jpg'];
    expect(listingHash(listing('1', { Images: images }))).not.toBe(listingHash(listing('1', { Images: [...images].reverse() })));
  });

  it('changes when any field changes, hidden fields included', () => {
    const base = listing('1');
    expect(listingHash({ ...base, AreaUnit: 'Square Meters' })).not.toBe(listingHash(base));
    expect(listingHash({ ...base, Location: 'Downtown' })).not.toBe(listingHash(base));
    expect(listingHash({ ...base, SalePrice: 1_250_001 })).not.toBe(listingHash(base));
    expect(listingHash({ ...base, ExtensionColumn: [{ Key: 'a', value: 'b' }] })).not.toBe(listingHash(base));
  });

  it('ignores keys outside the write shape, so a ListingWrite hashes like its fields', () => {
    const base = listing('1');
    const write = { ...base, SerialNumber: 'bot-1' } as ListingFields;
    expect(listingHash(write)).toBe(listingHash(base));
  });

  it('matches the generic canonical writer for every field (no field forgotten)', () => {
    const full: ListingFields = {
      ...listing('1'),
      Tours: '3D',
      Description: 'Line "one"\nline\\two',
      ExtensionColumn: [{ value: 'v', Key: 'k' }],
      Location: 'Loc',
      Address: '1 Main',
      State: 'CA',
      ZIP: '95112',
      UnitAreaPrice: 862.07,
      HOAMonth: 450,
      ZestimatePrice: 1.2e6,
      RentPrice: 0,
      SpaceType: 'Room',
      DepositFee: 99.5,
    };
    expect(Object.keys(full).sort()).toEqual([...LISTING_FIELD_NAMES].sort());
    expect(canonicalListingJson(full)).toBe(canonicalJson(full));
    expect(JSON.parse(canonicalListingJson(full))).toEqual(full);
    fc.assert(
      fc.property(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), (text, value) => {
        const candidate = { ...full, Description: text, Latitude: value };
        expect(canonicalListingJson(candidate)).toBe(canonicalJson(candidate));
        expect((JSON.parse(canonicalListingJson(candidate)) as { Description: unknown }).Description).toBe(text);
      }),
    );
  });
});

describe('field digests', () => {
  it('name each field whose value changed, and only those', () => {
    const before = listing('100');
    const after: ListingFields = { ...before, AreaUnit: 'Square Meters', Location: 'Downtown', SalePrice: (before.SalePrice ?? 0) + 1 };
    // In write-shape field order (LISTING_FIELD_NAMES).
    expect(fieldsChanged(fieldDigests(before), fieldDigests(after))).toEqual(['AreaUnit', 'Location', 'SalePrice']);
    expect(fieldsChanged(fieldDigests(before), fieldDigests({ ...before }))).toEqual([]);
  });

  it('ride after the content hash in what the ledger records; an entry from before them has the hash alone', () => {
    const item = listing('100');
    expect(hashParts(recordedHash(item))).toEqual({ hash: listingHash(item), digests: fieldDigests(item) });
    expect(hashParts(listingHash(item))).toEqual({ hash: listingHash(item) });
  });
});
