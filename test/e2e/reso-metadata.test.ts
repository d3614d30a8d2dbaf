/**
 * `sync --replicate` by what the server's `$metadata` says, with the built CLI against the RESO
 * simulator and real Redis: the metadata (and Lookup resource) is read once per service root and
 * kept in Redis for the next runs and processes; a key and a stamp under the server's own names
 * are paged and swept by; a server without `$metadata` is replicated by the Data Dictionary names;
 * a lookup value of the server's own is understood through its Lookup resource.
 */
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/keys.js';
import { metadataRootId } from '../../src/sync/kept-metadata.js';
import { after, resoFixtures, type ResoFixture, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf } from '../helpers/run-cli.js';

const BOT = 'bot-metadata';
const start = resoFixtures();
const redisUrl = inject('redisUrl');

const urlsOf = (f: ResoFixture): string[] => f.reso.state.requests().map((entry) => decodeURIComponent(entry.url));
const metadataReads = (f: ResoFixture): number => urlsOf(f).filter((url) => url.startsWith('/odata/$metadata')).length;
const lookupReads = (f: ResoFixture): number => urlsOf(f).filter((url) => url.startsWith('/odata/Lookup')).length;

async function keptRecord(f: ResoFixture): Promise<{ ttl: number; kept: { fetchedAt?: string; value?: { metadata?: unknown } } }> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  try {
    const key = storeKeys(f.prefix).feedMetadata(metadataRootId(f.reso.propertyUrl));
    const [text, ttl] = await Promise.all([redis.get(key), redis.ttl(key)]);
    return { ttl, kept: text === null ? {} : (JSON.parse(text) as { fetchedAt?: string }) };
  } finally {
    redis.disconnect();
  }
}

describe('the server metadata, read once and kept', () => {
  it('reads $metadata and the Lookup resource on the first run only; the second run (another process) spends nothing on them', async () => {
    const lookups = [{ LookupName: 'FeeFrequency', LookupValue: 'Every Month', StandardLookupValue: 'Monthly' }];
    const f = await start({ chatbots: [BOT], records: 12, photos: 1, reso: { maxTop: 5, lookups }, label: 'reso-metadata-once' });
    const first = await f.replicate(BOT);
    expect(first.code, first.stderr).toBe(0);
    expect([metadataReads(f), lookupReads(f)]).toEqual([1, 1]);
    // 1 $metadata + 1 Lookup page + 3 Property pages of 5.
    expect(jsonOf<Replicated>(first).replication).toMatchObject({ status: 'done', recordsPulled: 12, requests: 5 });
    const { ttl, kept } = await keptRecord(f);
    expect(ttl).toBeGreaterThan(23 * 3600);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
    expect(Date.parse(kept.fetchedAt ?? '')).toBeGreaterThan(Date.now() - 120_000);
    expect(kept.value?.metadata).toBeDefined();

    const second = await f.replicate(BOT, { extra: ['--sweep'] });
    expect(second.code, second.stderr).toBe(0);
    expect([metadataReads(f), lookupReads(f)]).toEqual([1, 1]);
  });
});

describe('key and stamp fields from $metadata', () => {
  it('pages, sweeps and continues a server whose key is ListingNumber and stamp ListingModificationTimestamp', async () => {
    const f = await start({
      chatbots: [BOT],
      records: 23,
      photos: 1,
      reso: { maxTop: 5, dropNextLinkAfter: 10, fieldNames: { key: 'ListingNumber', timestamp: 'ListingModificationTimestamp' } },
      label: 'reso-metadata-key',
    });
    const first = await f.replicate(BOT, { extra: ['--sweep'] });
    expect(first.code, first.stderr).toBe(0);
    const out = jsonOf<Replicated>(first);
    expect(out.replication).toMatchObject({ status: 'done', recordsPulled: 23, sweep: { complete: true, deleted: 0 } });
    expect(f.sim.state.listings(BOT)).toHaveLength(23);
    const queries = urlsOf(f).filter((url) => url.startsWith('/odata/Property'));
    // The server refuses the Data Dictionary names (400): every query named its own.
    expect(f.reso.state.requests().filter((entry) => entry.status === 400)).toEqual([]);
    expect(queries.every((url) => url.includes('$orderby=ListingModificationTimestamp,ListingNumber'))).toBe(true);
    // The links ended after 10 records: the pull went on by the server's key.
    expect(queries.some((url) => /ListingNumber gt '/.test(url))).toBe(true);

    const watermark = out.replication.watermark ?? '';
    const [changed = '', gone = ''] = f.keys().slice(4, 6);
    f.reso.state.records.modify({ keys: [changed], changes: { ListPrice: 777_000 }, timestamp: after(watermark, 5) });
    f.reso.state.records.remove({ keys: [gone] });
    const next = await f.replicate(BOT, { extra: ['--sweep', '--max-deletes', '1'] });
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<Replicated>(next).plan).toMatchObject({ create: 0, update: 1, delete: 1 });
    expect(f.mlsNumbers(BOT)).not.toContain(f.listingIdOf(gone));
    expect(f.sim.state.duplicateCreates(BOT)).toEqual([]);
  });

  it.each([404, 501] as const)(
    'replicates a server without $metadata (%i) by the Data Dictionary names, and remembers it has none',
    async (status) => {
      const f = await start({ chatbots: [BOT], records: 8, photos: 1, reso: { noMetadata: status }, label: 'reso-no-metadata' });
      const first = await f.replicate(BOT, { extra: ['--sweep'] });
      expect(first.code, first.stderr).toBe(0);
      expect(jsonOf<Replicated>(first).replication).toMatchObject({ status: 'done', recordsPulled: 8 });
      expect(f.sim.state.listings(BOT)).toHaveLength(8);
      const again = await f.replicate(BOT);
      expect(again.code, again.stderr).toBe(0);
      expect(metadataReads(f)).toBe(1);
      expect((await keptRecord(f)).kept.value).toEqual({});
    },
  );
});

describe('lookup values of the server own', () => {
  const feeRecord = (f: ResoFixture): string => {
    const [key = ''] = f.keys().slice(2, 3);
    f.reso.state.records.modify({
      keys: [key],
      changes: { AssociationFee: 300, AssociationFeeFrequency: 'Every Month' },
      timestamp: '2024-05-01T00:00:00.000Z',
    });
    return f.listingIdOf(key);
  };

  it('maps a LookupValue the Data Dictionary does not know to its StandardLookupValue; without the Lookup resource the row is rejected', async () => {
    const lookups = [
      { LookupName: 'FeeFrequency', LookupValue: 'Every Month', StandardLookupValue: 'Monthly', LegacyODataValue: 'EveryMonth' },
      { LookupName: 'FeeFrequency', LookupValue: 'Monthly', StandardLookupValue: 'Monthly' },
    ];
    const f = await start({ chatbots: [BOT], records: 5, photos: 1, reso: { lookups }, label: 'reso-lookups' });
    const id = feeRecord(f);
    const run = await f.replicate(BOT);
    expect(run.code, run.stderr).toBe(0);
    expect(f.sim.state.listings(BOT).find((held) => held.MLSNumber === id)?.HOAMonth).toBe(300);

    const plain = await start({ chatbots: [BOT], records: 5, photos: 1, reso: {}, label: 'reso-lookups-none' });
    const plainId = feeRecord(plain);
    const refused = await plain.replicate(BOT, { extra: ['--max-rejected', '50%'] });
    expect(jsonOf<{ feed: { rejected: number; rejectedBy: Array<{ field: string }> } }>(refused).feed).toMatchObject({
      rejected: 1,
      rejectedBy: [{ field: 'HOAMonth' }],
    });
    expect(plain.mlsNumbers(BOT)).not.toContain(plainId);
  });
});
