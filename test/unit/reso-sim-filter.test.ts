/**
 * The RESO simulator's $filter parser and DateTimeOffset values, on their own: the grammar's
 * edges (quotes, parentheses, lists) and the exact comparison at sub-millisecond precision.
 */
import { describe, expect, it } from 'vitest';
import { matches, parseFilter, type FilterFields } from '../../src/sim/reso/filter.js';
import { parseInstant } from '../../src/sim/reso/instant.js';

const FIELDS: FilterFields = {
  ModificationTimestamp: { kind: 'timestamp', ops: new Set(['eq', 'gt', 'ge', 'lt', 'le']) },
  ResourceRecordKey: { kind: 'string', ops: new Set(['eq', 'gt', 'in']) },
};

const parsed = (text: string) => {
  const result = parseFilter(text, FIELDS);
  if (!result.ok) throw new Error(result.message);
  return result.value;
};
const refusal = (text: string): string => {
  const result = parseFilter(text, FIELDS);
  return result.ok ? 'accepted' : result.message;
};

describe('parseInstant', () => {
  it('reads Z and offsets, up to 7 fractional digits as ms + 100 ns ticks', () => {
    expect(parseInstant('2024-05-01T12:00:00Z')).toEqual({ ms: Date.parse('2024-05-01T12:00:00.000Z'), ticks: 0 });
    expect(parseInstant('2024-05-01T14:00:00.5+02:00')).toEqual({ ms: Date.parse('2024-05-01T12:00:00.500Z'), ticks: 0 });
    expect(parseInstant('2024-05-01T12:00:00.1234567Z')).toEqual({ ms: Date.parse('2024-05-01T12:00:00.123Z'), ticks: 4567 });
  });

  it('refuses days and times that do not exist, dates alone and missing zones', () => {
    for (const text of [
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2024-05-01T24:00:00Z',
      '2024-05-01',
      '2024-05-01T12:00:00',
      '2024-05-01T12:00:00.12345678Z',
    ]) {
      expect(parseInstant(text), text).toBeUndefined();
    }
    expect(parseInstant('2024-02-29T00:00:00Z')).toBeDefined();
  });
});

describe('parseFilter', () => {
  it("reads 'and' tighter than 'or', through parentheses", () => {
    const expr = parsed(
      "(ModificationTimestamp gt 2024-05-01T00:00:00Z) or (ModificationTimestamp eq 2024-05-01T00:00:00Z and ResourceRecordKey gt 'K1')",
    );
    expect(expr).toMatchObject({
      op: 'or',
      items: [
        { field: 'ModificationTimestamp', op: 'gt' },
        { op: 'and', items: [{}, {}] },
      ],
    });
    const stamp = Date.parse('2024-05-01T00:00:00Z');
    const row = (ms: number, key: string) => (field: string) => (field === 'ModificationTimestamp' ? ms : key);
    expect(matches(expr, row(stamp + 1, 'A'))).toBe(true);
    expect(matches(expr, row(stamp, 'K2'))).toBe(true);
    expect(matches(expr, row(stamp, 'K1'))).toBe(false);
    expect(matches(expr, row(stamp - 1, 'Z'))).toBe(false);
    // Without parentheses the same precedence holds: a or (b and c).
    const bare = parsed("ResourceRecordKey eq 'a' or ResourceRecordKey eq 'b' and ModificationTimestamp lt 2024-05-01T00:00:00Z");
    expect(matches(bare, row(stamp + 5, 'a'))).toBe(true);
    expect(matches(bare, row(stamp + 5, 'b'))).toBe(false);
  });

  it('reads string literals with doubled quotes and in-lists', () => {
    expect(parsed("ResourceRecordKey eq 'O''Brien'")).toEqual({
      field: 'ResourceRecordKey',
      op: 'eq',
      value: { kind: 'string', text: "O'Brien" },
    });
    expect(parsed("ResourceRecordKey in ('a', 'b','c')")).toEqual({ field: 'ResourceRecordKey', op: 'in', values: ['a', 'b', 'c'] });
  });

  it('says what is wrong with a filter it cannot read', () => {
    expect(refusal('')).toBe('$filter is empty');
    expect(refusal("ResourceRecordKey eq 'open")).toBe('$filter: a string literal is not closed');
    expect(refusal('ModificationTimestamp ge 2024-05-01T00:00:00Z and')).toBe('$filter: expected a condition, got the end');
    expect(refusal('ModificationTimestamp ge 2024-05-01T00:00:00Z )')).toBe("$filter: unexpected ')' after a complete condition");
    expect(refusal("not ResourceRecordKey eq 'a'")).toBe("$filter: 'not' is not supported (only comparisons joined by 'and' and 'or')");
    expect(refusal('ResourceRecordKey eq K1')).toContain(
      "ResourceRecordKey compares with a quoted string like 'ResourceRecordKey-1' (got K1)",
    );
    expect(refusal("ResourceRecordKey in ('a' 'b')")).toBe("$filter: expected ',' or ')' in the list, got 'b'");
  });
});

describe('matches', () => {
  it('compares record milliseconds with literal ticks exactly', () => {
    const at = Date.parse('2024-05-01T12:00:00.123Z');
    const read = () => at;
    expect(matches(parsed('ModificationTimestamp ge 2024-05-01T12:00:00.123Z'), read)).toBe(true);
    expect(matches(parsed('ModificationTimestamp ge 2024-05-01T12:00:00.1230001Z'), read)).toBe(false);
    expect(matches(parsed('ModificationTimestamp gt 2024-05-01T12:00:00.1229999Z'), read)).toBe(true);
    expect(
      matches(parsed('ModificationTimestamp eq 2024-05-01T12:00:00.123Z and ModificationTimestamp le 2024-05-01T12:00:00.123Z'), read),
    ).toBe(true);
  });
});
