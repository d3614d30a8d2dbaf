/**
 * --max-rejected is parsed once, by the CLI's sync options (the guard only compares the number):
 * what it accepts, the number the sync request carries, and the usage error naming the flag.
 */
import { describe, expect, it } from 'vitest';
import { toSyncRequest, type RawSyncOptions } from '../../src/cli/sync-options.js';

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
