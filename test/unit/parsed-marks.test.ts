import { describe, expect, it } from 'vitest';
import { listingWriteSchema, listingUpdateSchema } from '../../src/domain/listing.js';
import { isParsedBy, markParsed } from '../../src/shared/parsed-marks.js';
import { sampleListing } from '../../src/sim/sample-listings.js';

describe('parsed marks (a create job listing is not validated twice)', () => {
  it('knows a marked parse output, for its own schema only', () => {
    const parsed = listingWriteSchema.parse(sampleListing(1, { SerialNumber: 'bot' }));
    expect(isParsedBy(listingWriteSchema, parsed)).toBe(false);
    markParsed(listingWriteSchema, parsed);
    expect(isParsedBy(listingWriteSchema, parsed)).toBe(true);
    expect(isParsedBy(listingUpdateSchema, parsed)).toBe(false);
  });

  it('does not carry over to a copy (an update body built from the listing is validated)', () => {
    const parsed = markParsed(listingWriteSchema, listingWriteSchema.parse(sampleListing(2, { SerialNumber: 'bot' })));
    expect(isParsedBy(listingWriteSchema, { ...parsed })).toBe(false);
    expect(isParsedBy(listingWriteSchema, undefined)).toBe(false);
  });

  it('skips nothing a second parse would change: the listing schema is a fixed point', () => {
    const raw = { ...sampleListing(3, { SerialNumber: ' bot ' }), MLSNumber: '  M-3 ', Unknown: 'dropped' };
    const once = listingWriteSchema.parse(raw);
    expect(listingWriteSchema.parse(once)).toEqual(once);
    expect(JSON.stringify(listingWriteSchema.parse(once))).toBe(JSON.stringify(once));
  });
});
