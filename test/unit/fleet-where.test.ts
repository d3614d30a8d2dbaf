/** A chatbot's `where`: what fleet.yaml may say (checked when read) and which records it matches. */
import { describe, expect, it } from 'vitest';
import { matchesWhere, whereProblems, type Where } from '../../src/domain/where.js';

const record = {
  ListOfficeMlsId: 'ACME1',
  City: 'Evanston',
  ListPrice: '250000',
  ListingContractDate: '2026-03-01',
  Features: ['Pool', 'Garage'],
};

describe('matchesWhere', () => {
  it.each<[string, Where, boolean]>([
    ['a value', { City: 'Evanston' }, true],
    ['a different value', { City: 'Chicago' }, false],
    ['a list holding the value', { ListOfficeMlsId: ['ACME1', 'ACME2'] }, true],
    ['a list without it', { ListOfficeMlsId: ['BETA1'] }, false],
    ['a number against the feed text of a number', { ListPrice: 250000 }, true],
    ['gte met', { ListPrice: { gte: 200000 } }, true],
    ['gte not met', { ListPrice: { gte: 300000 } }, false],
    ['a range met on both sides', { ListPrice: { gt: 249999, lte: 250000 } }, true],
    ['lt at the bound', { ListPrice: { lt: 250000 } }, false],
    ['a date range, as text', { ListingContractDate: { gte: '2026-01-01', lt: '2026-04-01' } }, true],
    ['every field must match', { City: 'Evanston', ListPrice: { gte: 300000 } }, false],
    ['a collection matches when one item does', { Features: 'Pool' }, true],
    ['a field the record lacks matches nothing', { PostalCode: '60201' }, false],
  ])('%s', (_what, where, expected) => {
    expect(matchesWhere(record, where)).toBe(expected);
  });

  it('an empty value matches nothing, not even a range', () => {
    expect(matchesWhere({ ListPrice: '' }, { ListPrice: { gte: 0 } })).toBe(false);
    expect(matchesWhere({ City: null }, { City: 'Evanston' })).toBe(false);
  });
});

describe('whereProblems', () => {
  it('accepts a value, a list and a range', () => {
    expect(whereProblems({ City: 'Evanston', ListOfficeMlsId: ['A', 'B'], ListPrice: { gte: 1, lt: 5 }, NewConstruction: true })).toEqual(
      [],
    );
  });

  it('names every bad part with its path', () => {
    expect(whereProblems({ City: [], ListPrice: { from: 1, gte: [2] }, Office: [{ a: 1 }], Note: null })).toEqual([
      { path: ['City'], message: 'an empty list matches nothing; give at least one value' },
      { path: ['ListPrice', 'from'], atKey: true, message: "unknown operator 'from'; a range takes gte, lte, gt, lt" },
      { path: ['ListPrice', 'gte'], message: 'gte takes a number or a text (e.g. a date)' },
      { path: ['Office', 0], message: 'a list holds plain values (text, numbers, true/false)' },
      { path: ['Note'], message: 'takes a value, a list of values, or a range such as { gte: 200000 }' },
    ]);
    expect(whereProblems({})).toEqual([{ path: [], message: 'an empty where matches every record; leave it out instead' }]);
    expect(whereProblems('City=Evanston')).toHaveLength(1);
  });
});
