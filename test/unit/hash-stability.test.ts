import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalListingJson, fieldDigests, listingHash } from '../../src/domain/hash.js';
import type { ListingFields } from '../../src/domain/listing.js';
import { listing } from '../helpers/planner-fixture.js';

/** A listing of every awkward kind of value: non-ASCII, quotes, a newline, a lone surrogate, -0, a list. */
const awkward = listing('7', {
  Description: 'Caf\u00e9 "quoted"\n\ud83d\ude00 \ud800',
  Images: ['https://a/1.jpg', 'https://a/2.jpg'],
  Latitude: -0,
  Longitude: 12.3456789,
  Location: 'Uptown',
});

describe('listingHash stays the hash the ledger holds', () => {
  it('gives the digests an earlier release stored for the same listings', () => {
    // Recorded with the previous canonical writer: a change here would make every ledger entry look stale.
    expect(listingHash(listing('100'))).toBe('44cbbca8abbb8c9bf7b9a5e2f0ebf5ee61577397cbbaf06f8ba5519be0e632d2');
    expect(listingHash(awkward)).toBe('8a161a5722c2d5f0361a1e1f028ac056c0f136684ff939a38380a3148a1fe027');
  });

  it('gives the field digests an earlier release stored (plain, escaped and nested values)', () => {
    // Recorded with the previous digest writer: a change here would name fields that did not change.
    expect(fieldDigests(listing('100'))).toBe('N4xw2qrYlT6cTjhi1gNkFMRVMIGdo3GeUN6VWzyjkxA8ozyjPKM8o2t1PKM8o-q8e9su-zyjPKM8ozyjPKM8ow');
    expect(fieldDigests(awkward)).toBe('N4xw2qrYlT6cTjhicVkQOcRVMIGdo3GeUN7xITyjkxCKnjyjI7Q8o2t1PKM8o52jaDwu-zyjPKM8ozyjPKM8ow');
    const nested: ListingFields = { ...listing('3'), Description: '', City: 'a\\b', ExtensionColumn: [{ value: 'x', Key: 'b' }] };
    expect(fieldDigests(nested)).toBe('N4xw2qrYlT6cTjhiA-MvL8RVMIGdo3GeUN7QHjyjkxBVT46oPKM8o8-DPKM8o-q8e9su-zyjPKM8ozyjPKM8ow');
  });

  it('writes listings without ExtensionColumn exactly like the generic canonical writer', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.double(),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.option(fc.string(), { nil: undefined }),
        (text, value, images, location) => {
          const candidate: ListingFields = { ...listing('1'), Description: text, Latitude: value, Images: images, Location: location };
          expect(canonicalListingJson(candidate)).toBe(canonicalJson(candidate));
        },
      ),
    );
  });
});
