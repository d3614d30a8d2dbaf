/**
 * A replication run read as feed rows: records mapped by the reso profile, off-market records
 * (a Withdrawn status, MlgCanView false) excluded with their key so a replicating sync can delete
 * them, and a budget halt ending the rows early instead of failing.
 */
import { describe, expect, it } from 'vitest';
import { ListingSyncError } from '../../src/shared/errors.js';
import { replicatedFeed, sweptKeys } from '../../src/feed/reso-api/replicated-feed.js';
import type { ReplicationRun } from '../../src/feed/reso-api/replicate.js';
import type { ReplicationResult, ResoRecord } from '../../src/feed/reso-api/types.js';
import type { FeedRow } from '../../src/feed/open-feed.js';
import { ErrorCode } from '../../src/shared/error-codes.js';

const record = (id: string, extra: ResoRecord = {}): ResoRecord => ({
  ListingKey: `K${id}`,
  ListingId: id,
  StandardStatus: 'Active',
  ListPrice: 500_000,
  PropertyType: 'Residential',
  UnparsedAddress: `${id} Main St`,
  ListingURL: `https://mls.example/listing/${id}`,
  ModificationTimestamp: '2024-05-01T12:00:00Z',
  ...extra,
});

function fakeRun(pages: ResoRecord[][], haltAfter?: number): ReplicationRun {
  let complete = false;
  const result = (): ReplicationResult => ({
    complete,
    maxTimestamp: undefined,
    requests: 0,
    bytes: 0,
    records: 0,
    pageSize: 10,
    pagedBy: undefined,
    media: 'none',
  });
  async function* run(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    for (const [index, page] of pages.entries()) {
      if (index === haltAfter) throw new ListingSyncError(ErrorCode.BUDGET_EXHAUSTED, 'feed request budget exhausted (perDay)');
      await Promise.resolve();
      yield page;
    }
    complete = true;
    return result();
  }
  return { pages: run(), result };
}

async function rowsOf(run: ReplicationRun): Promise<{ rows: FeedRow[]; halted: boolean }> {
  const feed = replicatedFeed(run, 'MLSNumber');
  const rows: FeedRow[] = [];
  for await (const row of feed.rows) rows.push(row);
  return { rows, halted: feed.halt() !== undefined };
}

describe('replicatedFeed', () => {
  it('maps records to listings and excludes off-market ones with their key', async () => {
    const { rows, halted } = await rowsOf(
      fakeRun([[record('1'), record('2', { StandardStatus: 'Withdrawn' })], [record('3', { MlgCanView: false })]]),
    );
    expect(rows.map((row) => [row.kind, row.kind === 'rejected' ? row.reason : row.key])).toEqual([
      ['listing', '1'],
      ['excluded', '2'],
      ['excluded', '3'],
    ]);
    expect(rows[2]).toMatchObject({ reason: 'MlgCanView false: not viewable' });
    expect(halted).toBe(false);
  });

  it('ends the rows at a budget halt and says so; a halted sweep yields no keys', async () => {
    const { rows, halted } = await rowsOf(fakeRun([[record('1')], [record('2')]], 1));
    expect(rows.map((row) => row.kind === 'listing' && row.key)).toEqual(['1']);
    expect(halted).toBe(true);
    expect(await sweptKeys(fakeRun([[record('1')], [record('2')]], 1), (r) => r.ListingId as string)).toMatchObject({
      complete: false,
      halt: expect.any(Error),
    });
    expect(await sweptKeys(fakeRun([[record('1')], [record('2')]]), (r) => r.ListingId as string)).toEqual({
      complete: true,
      keys: new Set(['1', '2']),
    });
  });
});
