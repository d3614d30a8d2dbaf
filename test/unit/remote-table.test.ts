import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordedHash } from '../../src/domain/hash.js';
import { CompactLedger, type LedgerEntry } from '../../src/domain/ledger-entry.js';
import { listingFieldsSchema, type ListingFields } from '../../src/domain/listing.js';
import { remoteListingsOf, type RemoteListing } from '../../src/domain/snapshot/remote.js';
import { TextBytesColumn } from '../../src/domain/snapshot/remote-columns.js';
import { RemoteTableBuilder } from '../../src/domain/snapshot/remote-table.js';
import { sampleListing } from '../../src/sim/sample-listings.js';

function fieldsOf(i: number, overrides: Partial<ListingFields> = {}): Partial<ListingFields> {
  const { SerialNumber: _serial, ...fields } = sampleListing(i, overrides);
  return fields;
}

describe('RemoteTable', () => {
  it('gives back every listing exactly as added: ids, present fields, absent fields, empty lists', () => {
    const input: RemoteListing[] = [
      { id: '7', fields: fieldsOf(0) },
      { id: '0012', fields: fieldsOf(1, { Images: [], Tours: 'OpenHouse' }) },
      { id: 'abc-1', fields: { MLSNumber: 'X1', Url: '', Bedrooms: 0 } },
      { id: '9007199254740993', fields: fieldsOf(2, { ExtensionColumn: [{ Key: 'Pool', value: 'yes' }] }) },
    ];
    const builder = new RemoteTableBuilder(2);
    for (const listing of input) builder.add(listing);
    const table = builder.build();
    expect(table.length).toBe(4);
    expect(remoteListingsOf(table)).toEqual(input);
    expect(table.key(2, 'MLSNumber')).toBe('X1');
    expect(table.key(2, 'URL')).toBe('');
    expect(Object.keys(table.fields(2)).sort()).toEqual(['Bedrooms', 'MLSNumber', 'Url']);
  });

  it('round-trips random valid listings with random subsets of fields (property)', () => {
    const listing = fc.record({
      id: fc.oneof(fc.nat().map(String), fc.string({ minLength: 1, maxLength: 8 })),
      i: fc.nat(500),
      drop: fc.array(fc.constantFrom(...Object.keys(listingFieldsSchema.shape)), { maxLength: 10 }),
    });
    fc.assert(
      fc.property(fc.array(listing, { maxLength: 30 }), (rows) => {
        const input: RemoteListing[] = rows.map(({ id, i, drop }) => {
          const fields: Record<string, unknown> = { ...fieldsOf(i) };
          for (const name of drop) delete fields[name];
          return { id, fields };
        });
        const builder = new RemoteTableBuilder();
        for (const item of input) builder.add(item);
        expect(remoteListingsOf(builder.build())).toEqual(input);
      }),
      { numRuns: 100 },
    );
  });
  it('keeps integer columns exact and falls back to doubles per column when a fraction appears (Int32 sentinel, -0, huge)', () => {
    const rows: Array<Partial<ListingFields>> = [
      { MLSNumber: 'A', Bedrooms: 3, YearBuilt: 1999, SalePrice: 250_000 },
      { MLSNumber: 'B', Bedrooms: 0, SalePrice: -2147483648 },
      { MLSNumber: 'C', Bedrooms: 2.5, YearBuilt: 2001, SalePrice: 3_000_000_000 },
      { MLSNumber: 'D', Bathrooms: -0, DaysOnMarket: 7 },
      { MLSNumber: 'E' },
    ];
    const builder = new RemoteTableBuilder(1);
    rows.forEach((fields, i) => builder.add({ id: String(i + 1), fields }));
    const table = builder.build();
    expect(remoteListingsOf(table).map((listing) => listing.fields)).toEqual(rows);
    expect(Object.is(table.fields(3).Bathrooms, -0)).toBe(true);
    expect(table.fields(4)).toEqual({ MLSNumber: 'E' });
  });

  it('keeps repeated text as codes and still gives every value back past 65,534 distinct values', () => {
    const count = 70_000;
    const builder = new RemoteTableBuilder(10);
    for (let i = 0; i < count; i++)
      builder.add({ id: String(i), fields: { City: i % 3 === 0 ? 'Chicago' : `City ${i}`, ...(i % 5 === 0 ? {} : { State: 'IL' }) } });
    const table = builder.build();
    for (const i of [0, 1, 2, 65_534, 65_535, 65_536, 69_999]) {
      expect(table.fields(i)).toEqual({ City: i % 3 === 0 ? 'Chicago' : `City ${i}`, ...(i % 5 === 0 ? {} : { State: 'IL' }) });
    }
  });
});

describe('TextBytesColumn', () => {
  it('gives back unique text exactly: non-ASCII, empty, absent, longer than a length field, across many blocks', () => {
    const column = new TextBytesColumn();
    const long = 'x'.repeat(70_000);
    const values = new Map<number, string>([
      [0, 'Café Montréal 🏠'],
      [1, ''],
      [3, long],
      [4, '  spaced  '],
    ]);
    // ~48 MiB of URLs: dozens of 1 MiB blocks, each value within one.
    for (let row = 5; row < 400_000; row++)
      values.set(row, `https://www.redfin.com/IL/Chicago/${row}-N-Clarendon-Ave-60640/unit-${row % 977}/home/${row * 7}`);
    for (const [row, value] of values) column.set(row, value, 400_000);
    for (const [row, value] of values) expect(column.get(row)).toBe(value);
    expect(column.get(2)).toBeUndefined();
    expect(column.get(400_001)).toBeUndefined();
  });
});

describe('CompactLedger', () => {
  it('returns the same entries it was given, hex hashes or not, field digests or not', () => {
    const entries: Array<[string, LedgerEntry]> = [
      ['ML1', { hash: 'a'.repeat(64), remoteId: '42', writtenAt: 1_795_000_000_000, runId: 'run-00mwr2v0ni-f4020aa7' }],
      ['ML2', { hash: '0123456789abcdef'.repeat(4), writtenAt: 5, runId: 'run-00mwr2v0ni-f4020aa7' }],
      ['ML3', { hash: 'not-a-hex-hash', remoteId: 'NO-7', writtenAt: 6, runId: 'run-b' }],
      ['ML4', { hash: 'A'.repeat(64), remoteId: '0009', writtenAt: 7, runId: 'run-c' }],
      ['ML5', { hash: recordedHash(fieldsOf(5) as ListingFields), remoteId: '43', writtenAt: 8, runId: 'run-c' }],
    ];
    const ledger = new CompactLedger();
    for (const [key, entry] of entries) ledger.set(key, entry);
    // Replaced by an entry from before field digests: none are kept from the first.
    ledger.set('ML5', { hash: 'b'.repeat(64), writtenAt: 9, runId: 'run-d' });
    expect(ledger.get('ML5')?.hash).toBe('b'.repeat(64));
    ledger.set('ML5', entries[4]?.[1] as LedgerEntry);
    expect(ledger.size).toBe(5);
    for (const [key, entry] of entries) expect(ledger.get(key)).toEqual(entry);
    expect(ledger.has('ML9')).toBe(false);
    expect(ledger.get('ML9')).toBeUndefined();
  });
});
