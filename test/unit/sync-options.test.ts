/**
 * --max-rejected is parsed once, by the CLI's sync options (the guard only compares the number):
 * what it accepts, the number the sync request carries, and the usage error naming the flag.
 * Also --replicate's options, and the wipe guard's --max-wipes and --allow-wipe.
 */
import { describe, expect, it } from 'vitest';
import { toSyncRequest, type RawSyncOptions } from '../../src/cli/input/sync-options.js';
import { parseStoredRequest, wipeLimitsOf } from '../../src/sync/sync-request.js';

const RAW: RawSyncOptions = {
  chatbot: 'bot-1',
  feed: 'fixtures/feed.csv',
  profile: 'native',
  encoding: 'utf-8',
  keyType: 'MLSNumber',
  mode: 'mirror',
  deleteScope: 'managed',
  maxDeletes: '10%',
  maxRejected: '5%',
  pageSize: '100',
  force: false,
};

function maxRejected(text: string): number {
  return toSyncRequest({ ...RAW, maxRejected: text }, { dryRun: true }).maxRejectedPercent;
}

describe('--max-rejected', () => {
  it.each([
    ['5%', 5],
    ['5', 5],
    ['2.5', 2.5],
    [' 12.5% ', 12.5],
    ['0%', 0],
    ['100%', 100],
  ])('reads %j as %d percent of the feed rows', (text, percent) => {
    expect(maxRejected(text)).toBe(percent);
  });

  it.each(['', 'five', '-1', '101%', '150%', '%', '5%%', '1e2'])('rejects %j with a USAGE error naming the flag and the value', (text) => {
    expect(() => maxRejected(text)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('--max-rejected') }));
  });
});

describe('--replicate', () => {
  const RESO = { ...RAW, mode: undefined, profile: 'reso', feed: 'https://mls.example/odata/Property' };

  it('plans as upsert when --mode is not given, and carries the replication options a schedule stores', () => {
    const request = toSyncRequest({ ...RESO, replicate: true, sweep: true, feedBudget: 'mls-grid', overlap: '5m' }, { dryRun: false });
    expect(request.mode).toBe('upsert');
    expect(request.replicate).toEqual({ sweep: true, overlapMs: 300_000, budget: 'mls-grid' });
    expect(toSyncRequest({ ...RAW, mode: undefined }, { dryRun: false }).mode).toBe('mirror');
  });

  it.each([
    [{ ...RESO, replicate: true, mode: 'mirror' }, '--replicate cannot be combined with --mode mirror'],
    [{ ...RESO, sweep: true }, '--sweep needs --replicate'],
    [{ ...RESO, feedPageSize: '50' }, '--feed-page-size needs --replicate'],
    [{ ...RESO, replicate: true, profile: 'native' }, '--replicate needs --profile reso'],
    [{ ...RESO, replicate: true, feed: 'feed.json' }, '--replicate needs --feed to be the OData resource URL'],
    [{ ...RESO, replicate: true, feedBudget: '2/s,lots' }, '--feed-budget'],
  ])('refuses %j with a USAGE error', (raw, message) => {
    expect(() => toSyncRequest(raw, { dryRun: false })).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(message) }),
    );
  });
});

describe('--max-wipes and --allow-wipe', () => {
  it('carry the limit as typed and the allowed fields in write-shape spelling, each once; a stored request reads them back', () => {
    const request = toSyncRequest({ ...RAW, maxWipes: '25', allowWipe: ['saleprice,HOAMonth', 'SalePrice'] }, { dryRun: false });
    expect(request).toMatchObject({ maxWipes: '25', allowWipe: ['SalePrice', 'HOAMonth'] });
    expect(wipeLimitsOf(parseStoredRequest(JSON.parse(JSON.stringify(request)), 'schedule'))).toEqual({
      maxWipes: { kind: 'count', value: 25 },
      allowWipe: ['SalePrice', 'HOAMonth'],
    });
  });

  it('default to 10% and no field when not given (a request stored by an older version too)', () => {
    const request = toSyncRequest(RAW, { dryRun: false });
    expect(request.allowWipe).toBeUndefined();
    expect(wipeLimitsOf(request)).toEqual({ maxWipes: { kind: 'percent', value: 10 }, allowWipe: [] });
  });

  it('report a bad --max-wipes and an unknown --allow-wipe field together, with the other bad flags', () => {
    expect(() => toSyncRequest({ ...RAW, maxWipes: '10 %%', allowWipe: ['Price'], pageSize: 'x' }, { dryRun: false })).toThrow(
      expect.objectContaining({
        code: 'USAGE',
        message: expect.stringMatching(
          /--page-size .*\n {2}--max-wipes must be .*\n {2}--allow-wipe names no listing field: Price; the fields are /,
        ),
      }),
    );
  });
});
