/**
 * Every Data Dictionary 2.0 lookup value of every field the reso profile maps (fixtures/reso/
 * dd2-lookups.json), in display form and in PascalCase: each maps, or leaves its field empty with a
 * note; a legal value never rejects a row.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFeedWith } from '../helpers/feed.js';

const { lookups } = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/reso/dd2-lookups.json'), 'utf8')) as {
  lookups: Record<string, string[]>;
};
const pascal = (value: string): string => value.replace(/[\s-]+/g, '');

function record(index: number, field: string, value: string): Record<string, unknown> {
  const base: Record<string, unknown> = {
    ListingKey: `K${index}`,
    ListingId: `L${index}`,
    ListingURL: `https://homes.example/l/${index}`,
    StandardStatus: 'Active',
    PropertyType: 'Residential',
    ListPrice: 500000,
    LivingArea: 1200,
    LotSizeArea: 2,
    LotSizeUnits: 'Acres',
    AssociationFee: 360,
    Media: [{ MediaURL: `https://img.example/${index}.jpg`, Order: 1, MediaCategory: 'Photo' }],
  };
  if (field === 'MediaCategory') base.Media = [{ MediaURL: `https://img.example/${index}.jpg`, Order: 1, MediaCategory: value }];
  else base[field] = value;
  return base;
}

describe('DD 2.0 lookups through the reso profile', () => {
  const cases = Object.entries(lookups).flatMap(([field, values]) =>
    values.flatMap((value) => [
      [field, value],
      [field, pascal(value)],
    ]),
  );
  it(`rejects none of the ${cases.length} legal values`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dd2-lookups-'));
    const source = join(dir, 'feed.json');
    writeFileSync(source, JSON.stringify({ value: cases.map(([field = '', value = ''], index) => record(index, field, value)) }));
    const { rows, stats } = await readFeedWith('reso', { source });
    const rejected = rows.filter((row) => row.kind === 'rejected');
    expect(rejected, JSON.stringify(rejected.slice(0, 3))).toEqual([]);
    expect(stats.rows).toBe(cases.length);
  });

  it('converts periodic fees to a month and leaves one-time and seasonal ones empty with a note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dd2-fees-'));
    const source = join(dir, 'feed.json');
    const fees = lookups.AssociationFeeFrequency ?? [];
    writeFileSync(source, JSON.stringify(fees.map((value, index) => record(index, 'AssociationFeeFrequency', value))));
    const { rows, stats } = await readFeedWith('reso', { source });
    const monthly = Object.fromEntries(
      rows.map((row, index): [string, unknown] => [fees[index] ?? '', row.kind === 'listing' ? row.listing.HOAMonth : row.kind]),
    );
    expect(monthly).toEqual({
      Annually: 30,
      'Bi-Monthly': 180,
      'Bi-Weekly': 780,
      Daily: 10950,
      Monthly: 360,
      'One Time': undefined,
      Quarterly: 120,
      Seasonal: undefined,
      'Semi-Annually': 60,
      'Semi-Monthly': 720,
      Weekly: 1560,
    });
    expect(stats.leftEmpty).toEqual({
      "HOAMonth: AssociationFeeFrequency 'One Time' has no monthly amount": 1,
      "HOAMonth: AssociationFeeFrequency 'Seasonal' has no monthly amount": 1,
    });
  });
});
