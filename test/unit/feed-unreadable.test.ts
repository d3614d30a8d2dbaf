import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFeed, type FeedOptions, type FeedRow } from '../../src/feed/open-feed.js';
import { fixture, readFeedWith } from '../helpers/feed.js';

const readFeed = (options: Partial<FeedOptions> & { source: string }) => readFeedWith('native', options);

/** The error a feed fails with, whether at open or while its rows are read. */
async function failure(options: Partial<FeedOptions> & { source: string }): Promise<{ code: string; message: string }> {
  try {
    await readFeed(options);
  } catch (thrown) {
    return { code: (thrown as { code: string }).code, message: (thrown as Error).message };
  }
  throw new Error('expected the feed to fail');
}

const NATIVE_HEADER =
  'MLSNumber,Url,SaleType,Status,CurrencySymbol,PropertyType,Bedrooms,Bathrooms,YearBuilt,DaysOnMarket,LotArea,BuildingArea,AreaUnit,ParkingSpots,Address';
const nativeRow = (i: number, address = `${i} Main St`): string =>
  `M${i},https://example.com/m${i},for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1,${address}`;

describe('unreadable feeds stop with one clear message', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-bad-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const write = async (name: string, content: string | Uint8Array): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };

  it('a missing file', async () => {
    const path = join(dir, 'nope.csv');
    expect(await failure({ source: path })).toEqual({
      code: 'FEED_UNREADABLE',
      message: `Feed ${path} is unreadable: file not found. Check the --feed path.`,
    });
  });

  it('an empty file', async () => {
    const { code, message } = await failure({ source: fixture('empty.csv') });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('empty.csv is unreadable: the file is empty');
  });

  it('a header-only file', async () => {
    const { code, message } = await failure({ source: fixture('header-only.csv'), profile: 'redfin' });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('header-only.csv is unreadable: it has a header but no rows');
  });

  it('a duplicated header name (csv-parse would keep only the last)', async () => {
    const { code, message } = await failure({ source: fixture('dup-header.csv') });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain("column 'bedrooms' appears twice in the header (columns 3 and 5)");
    expect(message).toContain('Rename or remove one of them');
  });

  it('no key column under the profile', async () => {
    const { code, message } = await failure({ source: fixture('brokerage-custom.csv'), profile: 'native' });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('no column holds the key MLSNumber for --key-type MLSNumber under profile native');
    expect(message).toContain('Use --key-type URL, or map a column to MLSNumber in a mapping file.');
  });

  it('a Redfin export read under another profile is told to use --profile redfin', async () => {
    for (const name of ['redfin.csv', 'redfin-old-header.csv']) {
      const { code, message } = await failure({ source: fixture(name), profile: 'native' });
      expect(code).toBe('FEED_UNREADABLE');
      expect(message).toContain('no column holds the key MLSNumber for --key-type MLSNumber under profile native');
      expect(message).toContain("'MLS#'");
      expect(message).toContain("Its header is a Redfin export's: add --profile redfin.");
    }
  });

  it('binary data and HTML are not CSV or JSON', async () => {
    const binary = await write('feed.csv', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x10, 0x00]));
    expect((await failure({ source: binary })).message).toContain('binary data (NUL bytes), not CSV or JSON');
    const html = await write('feed.json', '<!doctype html><html><body>Login</body></html>');
    expect((await failure({ source: html })).message).toContain('looks like HTML or XML');
  });

  it('a record larger than the limit names its line', async () => {
    const path = await write(
      'unclosed.csv',
      `${NATIVE_HEADER}\n${nativeRow(1)}\n${nativeRow(2, '"2 Main St')}\n${Array.from({ length: 50 }, (_, i) => nativeRow(i + 3)).join('\n')}\n`,
    );
    const { code, message } = await failure({ source: path, maxRecordBytes: 500 });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('the record starting on line 3 is larger than 500 bytes. Look for an unclosed quote on that line');
  });

  it('a quote still open at the end of the file (truncated)', async () => {
    const path = await write('truncated.csv', `${NATIVE_HEADER}\n${nativeRow(1)}\n${nativeRow(2, '"2 Main St')}\n`);
    const { code, message } = await failure({ source: path });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('a quote opened in the record starting on line 3 is never closed');
  });

  it('truncated JSON fails while reading, after the records before the cut', async () => {
    const path = await write('cut.json', '{"value":[{"ListingId":"A1","ListingURL":"https://e/a1"},{"ListingId":"A2"');
    const feed = await openFeed({ source: path, profile: 'reso', keyType: 'MLSNumber' });
    const seen: FeedRow[] = [];
    await expect(async () => {
      for await (const row of feed.rows) seen.push(row);
    }).rejects.toMatchObject({ code: 'FEED_UNREADABLE', message: expect.stringContaining('the JSON ends before it is closed') });
    expect(seen.map((row) => row.line)).toEqual([1]);
  });

  it('JSON without records', async () => {
    const path = await write('none.json', '{"value":[]}');
    expect((await failure({ source: path, profile: 'reso' })).message).toContain('it contains no records');
  });

  it('an unknown encoding is a usage error', async () => {
    expect(await failure({ source: fixture('native.csv'), encoding: 'klingon' })).toMatchObject({ code: 'USAGE' });
  });
});

describe('encodings and byte-level traps', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-enc-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads latin1 with --encoding latin1', async () => {
    const { rows } = await readFeed({ source: fixture('latin1.csv'), profile: 'redfin', encoding: 'latin1' });
    expect(rows[0]).toMatchObject({ kind: 'listing', listing: { Address: '12 Rue Montréal', Location: 'Café District' } });
  });

  it('refuses latin1 bytes read as UTF-8, naming the byte offset and the fix', async () => {
    const { code, message } = await failure({ source: fixture('latin1.csv'), profile: 'redfin' });
    expect(code).toBe('FEED_UNREADABLE');
    expect(message).toContain('byte 0xE9 at byte offset 420 is not valid utf-8');
    expect(message).toContain('--encoding latin1');
  });

  it('finds a bad byte deep in a large file at its exact offset', async () => {
    const head = `${NATIVE_HEADER}\n${Array.from({ length: 2000 }, (_, i) => nativeRow(i)).join('\n')}\n`;
    const bytes = Buffer.concat([
      Buffer.from(head),
      Buffer.from('M9999,https://example.com/x,for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1,Caf'),
      Buffer.from([0xe9]),
      Buffer.from(' St\n'),
    ]);
    const path = join(dir, 'deep.csv');
    await writeFile(path, bytes);
    const offset = bytes.indexOf(0xe9);
    expect(offset).toBeGreaterThan(64 * 1024);
    const { message } = await failure({ source: path });
    expect(message).toContain(`at byte offset ${offset} is not valid utf-8`);
  });

  it('reads a UTF-8 character split across read chunks', async () => {
    const filler = `${NATIVE_HEADER}\n`;
    const rowStart = 'M1,https://example.com/m1,for_sale,Active,$,Condo,2,1,1990,3,0,800,Square Feet,1,';
    // Pad the address so that 'é' (2 bytes) starts on the last byte of the first 64 KiB chunk.
    const pad = 64 * 1024 - 1 - Buffer.byteLength(filler + rowStart);
    const path = join(dir, 'split.csv');
    await writeFile(path, `${filler}${rowStart}${'x'.repeat(pad)}é St\n`);
    const { rows } = await readFeed({ source: path });
    expect(rows[0]).toMatchObject({ kind: 'listing', key: 'M1' });
    if (rows[0]?.kind !== 'listing') throw new Error('expected a listing');
    expect(rows[0].listing.Address?.endsWith('xé St')).toBe(true);
  });

  it('a BOM never renames the first column, in UTF-8 or under another encoding', async () => {
    const text = `${NATIVE_HEADER}\r\n${nativeRow(1)}\r\n`;
    const utf8 = join(dir, 'bom.csv');
    await writeFile(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    expect((await readFeed({ source: utf8 })).rows[0]).toMatchObject({ kind: 'listing', key: 'M1' });
    expect((await readFeed({ source: utf8, encoding: 'latin1' })).rows[0]).toMatchObject({ kind: 'listing', key: 'M1' });
    const utf16 = join(dir, 'bom16.csv');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('1 Main St', 'Čapek Ulice'), 'utf16le')]));
    const { rows } = await readFeed({ source: utf16, encoding: 'utf-16le' });
    expect(rows[0]).toMatchObject({ kind: 'listing', key: 'M1', listing: { Address: 'Čapek Ulice' } });
  });
});
