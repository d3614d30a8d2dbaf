/**
 * The importer in a worker thread must be indistinguishable from the importer in-thread: the
 * same rows in the same order, the same stats, and the same error (code and message) at the
 * same point of the file, after the same rows. Each case reads a feed both ways and compares.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeed, WORKER_MIN_BYTES, type FeedOptions, type FeedRow } from '../../src/feed/open-feed.js';
import { fixture } from '../helpers/feed.js';

type Read = {
  rows: FeedRow[];
  stats?: unknown;
  shape?: unknown;
  header?: unknown;
  error?: { code: unknown; message: string };
  readIn?: string;
};

/** Reads a feed to its end or its error, keeping the rows read before an error. */
async function readAll(options: Partial<FeedOptions> & { source: string; profile: FeedOptions['profile'] }): Promise<Read> {
  const rows: FeedRow[] = [];
  try {
    const feed = await openFeed({ keyType: 'MLSNumber', ...options });
    for await (const row of feed.rows) rows.push(row);
    return { rows, stats: feed.stats(), shape: feed.shape(), header: feed.header, readIn: feed.readIn };
  } catch (thrown) {
    const error = thrown as { code?: unknown; message: string };
    return { rows, error: { code: error.code, message: error.message } };
  }
}

async function bothWays(
  options: Partial<FeedOptions> & { source: string; profile: FeedOptions['profile'] },
): Promise<{ here: Read; worker: Read }> {
  const [here, worker] = await Promise.all([readAll({ ...options, thread: 'main' }), readAll({ ...options, thread: 'worker' })]);
  return { here, worker };
}

const mappingFile = (name: string): string => join(import.meta.dirname, '../../fixtures/mappings', name);

const NATIVE_HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots,Address';
const nativeRow = (i: number): string =>
  `M${i},https://example.com/m${i},for_sale,Active,$,Condo,${i % 5},1,1990,3,0,${700 + (i % 300)},Square Feet,1,${i} Main St`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-threaded-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a feed read in a worker thread', () => {
  it.each([
    ['redfin-messy.csv', { profile: 'redfin' }],
    ['redfin-rejects.csv', { profile: 'redfin' }],
    ['redfin.tsv', { profile: 'redfin' }],
    ['native-pipe.csv', { profile: 'native' }],
    ['latin1.csv', { profile: 'redfin', encoding: 'latin1' }],
    ['redfin.csv', { profile: 'redfin', mapping: mappingFile('redfin-extra.json') }],
    ['reso-odata.json', { profile: 'reso' }],
    ['reso.ndjson', { profile: 'reso' }],
  ] as const)('gives the rows and stats of the in-thread importer: %s', async (name, options) => {
    const { here, worker } = await bothWays({ source: fixture(name), ...options });
    expect(here.error).toBeUndefined();
    expect(here.rows.length).toBeGreaterThan(0);
    // Every row but those too broken to map (a wrong cell count) is counted in the shape.
    expect(here.shape).toMatchObject({ rows: here.rows.filter((row) => row.kind !== 'rejected' || row.field !== '(record)').length });
    expect(worker).toEqual({ ...here, readIn: 'worker' });
    expect(here.readIn).toBe('main');
  });

  it.each([
    ['a missing file', { source: join('/nonexistent', 'feed.csv'), profile: 'redfin' }],
    ['an empty file', { source: fixture('empty.csv'), profile: 'redfin' }],
    ['a header without rows', { source: fixture('header-only.csv'), profile: 'redfin' }],
    ['a duplicated header', { source: fixture('dup-header.csv'), profile: 'redfin' }],
    ['an invalid mapping file', { source: fixture('redfin.csv'), profile: 'redfin', mapping: mappingFile('invalid.json') }],
    ['an unknown encoding', { source: fixture('redfin.csv'), profile: 'redfin', encoding: 'klingon' }],
    ['no key column', { source: fixture('redfin.csv'), profile: 'native' }],
  ] as const)('fails on %s with the in-thread error', async (_what, options) => {
    const { here, worker } = await bothWays(options);
    expect(here.error?.message.length).toBeGreaterThan(0);
    expect(worker).toEqual(here);
  });

  it('delivers every row before a bad byte deep in the file, then the same error', async () => {
    const head = `${NATIVE_HEADER}\n${Array.from({ length: 5000 }, (_, i) => nativeRow(i)).join('\n')}\n`;
    const path = join(dir, 'deep.csv');
    await writeFile(
      path,
      Buffer.concat([
        Buffer.from(head),
        Buffer.from('M9999,https://example.com/x,for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1,Caf'),
        Buffer.from([0xe9]),
        Buffer.from(' St\n'),
      ]),
    );
    const { here, worker } = await bothWays({ source: path, profile: 'native' });
    expect(here.error).toMatchObject({ code: 'FEED_UNREADABLE' });
    expect(here.error?.message).toContain('is not valid utf-8');
    expect(worker).toEqual(here);
  });

  it('is chosen for a local file of WORKER_MIN_BYTES or more, and reads it whole, in order, with its duplicates and rejects', async () => {
    const rows = Math.ceil(WORKER_MIN_BYTES / 100);
    const lines = Array.from({ length: rows }, (_, i) => nativeRow(i));
    // A duplicate key and a bad row far apart, so they land in different batches.
    lines.push(nativeRow(3), nativeRow(rows + 1).replace(',Condo,', ',,'));
    const path = join(dir, 'large.csv');
    await writeFile(path, `${NATIVE_HEADER}\n${lines.join('\n')}\n`);
    const small = await readAll({ source: fixture('native-pipe.csv'), profile: 'native' });
    const { here, worker } = await bothWays({ source: path, profile: 'native' });
    const auto = await readAll({ source: path, profile: 'native' });
    expect(small.readIn).toBe('main');
    expect(auto.readIn).toBe('worker');
    expect(here.rows).toHaveLength(rows + 2);
    expect(here.stats).toMatchObject({ rows: rows + 2, valid: rows, rejected: 2, duplicates: 1 });
    expect(worker).toEqual({ ...here, readIn: 'worker' });
    expect(auto).toEqual(worker);
  });

  it('stops its thread when the reader stops early', async () => {
    const feed = await openFeed({ source: fixture('redfin-messy.csv'), profile: 'redfin', keyType: 'MLSNumber', thread: 'worker' });
    for await (const row of feed.rows) {
      expect(row.line).toBe(2);
      break;
    }
    // The leak guard (test/helpers/leak-guard.ts) fails this file if the worker thread is still alive.
  });
});
