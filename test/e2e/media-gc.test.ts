/**
 * `listing-sync media gc` as a process over a file store filled by two chatbots replicating the
 * same feed: only objects no listing of either shows, and only once unreferenced past the grace
 * period, are removed; `--dry-run` removes nothing. A listing deleted because its record was
 * Withdrawn forgets its photos (by the chatbot's key, and the previous release's ListingKey field).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { describe, expect, inject, it } from 'vitest';
import { storeKeys } from '../../src/store/keys.js';
import { objectOf, tempDirs } from '../helpers/hosted-photos.js';
import { resoFixtures } from '../helpers/reso-fixture.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const [A, B] = ['bot-gc-a', 'bot-gc-b'] as const;
const start = resoFixtures();
const tempDir = tempDirs();

interface GcResult {
  dryRun: boolean;
  removed: Array<{ key: string }>;
  waiting: number;
  referenced: number;
}

describe('media gc', () => {
  it('keeps a photo another chatbot still shows, removes it once none does and the grace period passed', async () => {
    const f = await start({ chatbots: [A, B], records: 3, photos: 2, reso: { tokenTtlSeconds: 3600 }, label: 'media-gc' });
    f.reso.state.media.configure({ enabled: true });
    const dir = tempDir('ls-gc-');
    const env = { LISTING_SYNC_MEDIA_STORE: pathToFileURL(dir).href, LISTING_SYNC_MEDIA_BASE_URL: 'https://photos.example.test' };
    for (const bot of [A, B]) expect((await f.replicate(bot, { env })).code).toBe(0);
    const [key = ''] = f.keys();
    const dropped = f.reso.state.records.get(key)?.media.find((photo) => photo.Order === 1);
    const object = objectOf(dropped?.MediaKey ?? '', dropped?.ModificationTimestamp ?? '');
    expect(existsSync(join(dir, object))).toBe(true);
    f.reso.state.records.editPhoto({ key, order: 1, action: 'remove', timestamp: new Date(Date.now() + 60_000).toISOString() });
    const gc = async (extra: string[]): Promise<GcResult> => {
      const run = await runCli(['media', 'gc', '--json', ...extra], f.env(env));
      expect(run.code, run.stderr).toBe(0);
      return jsonOf<GcResult>(run);
    };

    // A drops the photo; B still shows it.
    expect((await f.replicate(A, { env })).code).toBe(0);
    expect(await gc(['--grace', '0s'])).toMatchObject({ removed: [], referenced: 6 });
    // B drops it too: unreferenced now, but within the default grace period.
    expect((await f.replicate(B, { env })).code).toBe(0);
    expect(await gc([])).toMatchObject({ removed: [], waiting: 1, referenced: 5 });
    expect(await gc(['--grace', '0s', '--dry-run'])).toMatchObject({ dryRun: true, removed: [{ key: object }] });
    expect(existsSync(join(dir, object))).toBe(true);
    expect(await gc(['--grace', '0s'])).toMatchObject({ removed: [{ key: object }], waiting: 0, referenced: 5 });
    expect(existsSync(join(dir, object))).toBe(false);
    // Nothing a listing shows was touched.
    for (const listing of [...f.sim.state.listings(A), ...f.sim.state.listings(B)])
      for (const image of listing.Images ?? []) expect(existsSync(join(dir, image.split('/').pop() ?? ''))).toBe(true);
  });

  it('forgets the photos of a listing deleted because Withdrawn; gc removes them once no chatbot shows them', async () => {
    const f = await start({ chatbots: [A, B], records: 5, photos: 2, reso: { tokenTtlSeconds: 3600 }, label: 'media-gc-withdrawn' });
    f.reso.state.media.configure({ enabled: true });
    const dir = tempDir('ls-gc-');
    const env = { LISTING_SYNC_MEDIA_STORE: pathToFileURL(dir).href, LISTING_SYNC_MEDIA_BASE_URL: 'https://photos.example.test' };
    for (const bot of [A, B]) expect((await f.replicate(bot, { env })).code).toBe(0);
    const [withdrawn = ''] = f.keys();
    const mls = f.listingIdOf(withdrawn);
    expect(mls).not.toBe(withdrawn);
    const objects = (f.sim.state.listings(A).find((listing) => listing.MLSNumber === mls)?.Images ?? []).map((url) => url.split('/').pop());
    expect(objects).toHaveLength(2);
    const redis = new Redis(inject('redisUrl'));
    const refs = storeKeys(f.prefix).photoRefs(A);
    try {
      // References are kept by the chatbot's key; one the previous release kept by ListingKey is added by hand.
      expect(await redis.hkeys(refs)).toContain(mls);
      await redis.hset(refs, withdrawn, objects.join(','));
      const gc = async (): Promise<GcResult> => {
        const run = await runCli(['media', 'gc', '--json', '--grace', '0s'], f.env(env));
        expect(run.code, run.stderr).toBe(0);
        return jsonOf<GcResult>(run);
      };
      f.reso.state.records.setStatus({ keys: [withdrawn], status: 'Withdrawn', timestamp: new Date(Date.now() + 60_000).toISOString() });
      const run = await f.replicate(A, { env, extra: ['--max-deletes', '1'] });
      expect(run.code, run.stderr).toBe(0);
      expect(f.mlsNumbers(A)).not.toContain(mls);
      expect(await redis.hexists(refs, mls)).toBe(0);
      expect(await redis.hexists(refs, withdrawn)).toBe(0);
      // B still shows the listing: its photos survive.
      expect(await gc()).toMatchObject({ removed: [], referenced: 10 });
      expect((await f.replicate(B, { env, extra: ['--max-deletes', '1'] })).code).toBe(0);
      const removed = (await gc()).removed.map((entry) => entry.key).sort();
      expect(removed).toEqual([...objects].sort());
      for (const object of objects) expect(existsSync(join(dir, object ?? ''))).toBe(false);
      for (const listing of [...f.sim.state.listings(A), ...f.sim.state.listings(B)])
        for (const image of listing.Images ?? []) expect(existsSync(join(dir, image.split('/').pop() ?? ''))).toBe(true);
    } finally {
      await redis.quit();
    }
  });
});
