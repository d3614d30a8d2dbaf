/**
 * `sync --replicate` against the RESO simulator in the modes of servers this team did not write
 * (OData's `$top` as a total, the `$top`/`$skip` bug, nextLinks that end early, a server that
 * counts records it never serves), 2,149 records each, with the built CLI and real Redis: a pull
 * is complete only when every record the server counted arrived, a short sweep deletes nothing
 * and says both numbers, and a sweep after one removal deletes exactly that one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { after, resoFixtures, type ResoFixture, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf } from '../helpers/run-cli.js';
import type { ResoSimOptions } from '../../src/sim/reso/server.js';

const BOT = 'bot-interop';
const RECORDS = 2149;
const start = resoFixtures();

const setUp = (reso: ResoSimOptions): Promise<ResoFixture> =>
  start({ chatbots: [BOT], records: RECORDS, photos: 1, reso, label: 'reso-interop' });

const replicate = (f: ResoFixture, extra: string[] = []) =>
  f.replicate(BOT, { extra: ['--max-deletes', '5', ...extra], timeoutMs: 240_000 });

describe('a pull is complete only when the server says so', () => {
  it.each([
    ['OData paging ($top a total, server-driven pages)', { maxTop: 1000 }],
    ['the $skip bug and no honoured Prefer', { maxTop: 1000, skipBug: true, honourMaxPageSize: false }],
    ['nextLinks that end after 1,999 records', { maxTop: 1000, dropNextLinkAfter: 1999 }],
    ['no nextLinks at all', { maxTop: 500, nextLink: false }],
  ] satisfies Array<[string, ResoSimOptions]>)(
    'receives all 2,149 records on a full pull, a sweep and an incremental with %s',
    async (_, reso) => {
      const f = await setUp(reso);
      const first = await replicate(f, ['--sweep']);
      expect(first.code, first.stderr).toBe(0);
      const out = jsonOf<Replicated>(first);
      expect(out.replication).toMatchObject({ status: 'done', recordsPulled: RECORDS, sweep: { complete: true, deleted: 0 } });
      expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS);
      const queries = f.reso.state.requests().map((entry) => decodeURIComponent(entry.url));
      expect(queries.some((query) => /\$top=|\$skip=/.test(query))).toBe(false);
      expect(f.reso.state.requests().every((entry) => entry.odataMaxVersion === '4.01')).toBe(true);

      const watermark = out.replication.watermark ?? '';
      const keys = f.keys();
      const changed = keys.filter((_, index) => index % 100 === 0);
      changed.forEach((key, index) => f.reso.state.records.modify({ keys: [key], timestamp: after(watermark, index + 1) }));
      const next = await replicate(f);
      expect(next.code, next.stderr).toBe(0);
      expect(jsonOf<Replicated>(next).plan).toMatchObject({ create: 0, update: changed.length, delete: 0 });
      expect(f.sim.state.duplicateCreates(BOT)).toEqual([]);
    },
  );

  it('a server that stops serving at 1,999 of 2,149: the sweep deletes nothing, exits 1 and names both numbers', async () => {
    const f = await setUp({ maxTop: 1000 });
    expect((await replicate(f)).code).toBe(0);
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS);
    f.reso.state.configure({ serveAtMost: 1999 });
    const short = await replicate(f, ['--sweep']);
    expect(short.code, short.stderr).toBe(1);
    expect(short.stderr).toContain('received 1,999 of 2,149 records');
    const out = jsonOf<Replicated & { replication: { shortfall?: unknown } }>(short);
    expect(out.replication).toMatchObject({ status: 'incomplete', sweep: { complete: false, deleted: 0 } });
    expect(out.replication.shortfall).toEqual({ of: 'sweep', received: 1999, expected: 2149 });
    expect(out.plan.delete).toBe(0);
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS);
  });

  it('a sweep after one record was removed deletes exactly that one', async () => {
    const f = await setUp({ maxTop: 1000, skipBug: true });
    expect((await replicate(f)).code).toBe(0);
    const [gone = ''] = f.keys().slice(1234, 1235);
    const goneId = f.listingIdOf(gone);
    f.reso.state.records.remove({ keys: [gone] });
    const swept = await replicate(f, ['--sweep']);
    expect(swept.code, swept.stderr).toBe(0);
    expect(jsonOf<Replicated>(swept).replication.sweep).toEqual({ complete: true, deleted: 1 });
    expect(f.sim.state.listings(BOT)).toHaveLength(RECORDS - 1);
    expect(f.mlsNumbers(BOT)).not.toContain(goneId);
  });
});

describe('photos, mappings and flags under --replicate', () => {
  it("a photo-only change (the Media's own stamp, not the Property's) reaches the chatbot on the next incremental pull", async () => {
    const f = await start({ chatbots: [BOT], records: 30, photos: 2, reso: { maxTop: 10 }, label: 'reso-photos' });
    const first = await f.replicate(BOT);
    expect(first.code, first.stderr).toBe(0);
    const watermark = jsonOf<Replicated>(first).replication.watermark ?? '';
    const [key = ''] = f.keys().slice(7, 8);
    const urls = ['https://photos.example/new-1.jpg', 'https://photos.example/new-2.jpg', 'https://photos.example/new-3.jpg'];
    f.reso.state.records.setMedia({ keys: [key], urls, touch: false, timestamp: after(watermark, 30) });
    const next = await f.replicate(BOT);
    expect(next.code, next.stderr).toBe(0);
    expect(jsonOf<Replicated>(next).plan).toMatchObject({ create: 0, update: 1, delete: 0 });
    const listing = f.sim.state.listings(BOT).find((held) => held.MLSNumber === f.listingIdOf(key));
    expect(listing?.Images).toEqual(urls);
    const unchanged = await f.replicate(BOT);
    expect(jsonOf<Replicated>(unchanged).plan).toMatchObject({ create: 0, update: 0, delete: 0 });
  });

  it('applies --mapping: MLSNumber from ListingKey and a Url template, for the pull and the sweep; a field the server lacks is refused', async () => {
    const f = await start({ chatbots: [BOT], records: 40, photos: 1, reso: { maxTop: 15 }, label: 'reso-mapping' });
    f.reso.state.records.modify({ keys: f.keys(), changes: { ListingId: '', ListingURL: '' }, timestamp: '2024-05-01T00:00:00.000Z' });
    const dir = mkdtempSync(join(tmpdir(), 'reso-mapping-'));
    const mapping = join(dir, 'mapping.json');
    writeFileSync(
      mapping,
      JSON.stringify({ columns: { MLSNumber: 'ListingKey' }, templates: { Url: 'https://homes.example/l/{ListingKey}' } }),
    );
    const unmapped = await f.replicate(BOT);
    expect(unmapped.code).not.toBe(0);
    const mapped = await f.replicate(BOT, { extra: ['--mapping', mapping, '--sweep'] });
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(f.mlsNumbers(BOT)).toEqual([...f.keys()].sort());
    expect(f.sim.state.listings(BOT).every((held) => held.Url === `https://homes.example/l/${String(held.MLSNumber)}`)).toBe(true);
    const [gone = ''] = f.keys().slice(3, 4);
    f.reso.state.records.remove({ keys: [gone] });
    const swept = await f.replicate(BOT, { extra: ['--mapping', mapping, '--sweep', '--max-deletes', '1'] });
    expect(swept.code, swept.stderr).toBe(0);
    expect(jsonOf<Replicated>(swept).replication.sweep).toEqual({ complete: true, deleted: 1 });
    expect(f.mlsNumbers(BOT)).not.toContain(gone);

    writeFileSync(mapping, JSON.stringify({ columns: { MLSNumber: 'ListingKey', Description: 'NoSuchRemarks' } }));
    const requestsBefore = f.reso.state.counters().requests;
    const refused = await f.replicate(BOT, { extra: ['--mapping', mapping] });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("columns.Description: the server's Property has no field 'NoSuchRemarks'");
    // Nothing was read: the $metadata the refusal checked against was kept in Redis by the first run.
    expect(f.reso.state.counters().requests - requestsBefore).toBe(0);
  });

  it('refuses a flag that does nothing with --replicate in one line', async () => {
    const f = await start({ chatbots: [BOT], records: 1, reso: {}, label: 'reso-flags' });
    const run = await f.replicate(BOT, { extra: ['--delimiter', ';'] });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('--delimiter does nothing with --replicate')]);
  });
});
