/**
 * Hosted photos into an S3-compatible store: `sync --replicate --work` as a process, the S3 store
 * (AWS SDK v3) against s3rver on loopback, the RESO simulator's media host. The bytes the server
 * stored are compared by sha256 with the source's: a streamed upload that framed them (aws-chunked)
 * would store more bytes than the photo has.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { photoBytes } from '../../src/sim/reso/server.js';
import { startS3, type RunningS3 } from '../../bench/s3rver.js';
import { resoFixtures, type Replicated } from '../helpers/reso-fixture.js';
import { jsonOf } from '../helpers/run-cli.js';

const BOT = 'bot-photos-s3';
const BASE = 'https://cdn.brokerage.test';
const start = resoFixtures();
const servers: RunningS3[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('hosted photos in an S3 store', () => {
  it('stores every photo under its sha256 with exactly the source bytes; Images are under the base URL in Order', async () => {
    const s3 = await startS3();
    servers.push(s3);
    const f = await start({ chatbots: [BOT], records: 20, photos: 3, reso: { tokenTtlSeconds: 3600 }, label: 'photos-s3' });
    f.reso.state.media.configure({ enabled: true, tokenUserAgent: true });
    const env = {
      ...s3.env,
      LISTING_SYNC_MEDIA_STORE: `s3://${s3.bucket}/listings`,
      LISTING_SYNC_MEDIA_BASE_URL: `${BASE}/listings`,
      FEED_MEDIA_USER_AGENT: 'token',
    };
    const run = await f.replicate(BOT, { env });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf<Replicated & { replication: { photos?: unknown } }>(run).replication.photos).toMatchObject({
      hosted: 60,
      notFetched: 0,
    });
    const held = new Map(f.sim.state.listings(BOT).map((listing) => [String(listing.MLSNumber), listing.Images ?? []]));
    for (const record of f.reso.state.records.list()) {
      const photos = [...record.media].sort((a, b) => a.Order - b.Order);
      const keys = photos.map((photo) => `${sha(photoBytes(photo.MediaKey, photo.ModificationTimestamp))}.jpg`);
      expect(held.get(record.property.ListingId)).toEqual(keys.map((key) => `${BASE}/listings/${key}`));
      for (const [index, key] of keys.entries()) {
        const source = photoBytes(photos[index]?.MediaKey ?? '', photos[index]?.ModificationTimestamp ?? '');
        const stored = s3.stored(`listings/${key}`);
        expect(stored?.length).toBe(source.length);
        expect(sha(stored ?? Buffer.alloc(0))).toBe(sha(source));
      }
    }
    const again = await f.replicate(BOT, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(jsonOf<Replicated & { replication: { photos?: unknown } }>(again).replication.photos).toMatchObject({ hosted: 0 });
  });
});
