/**
 * Replication sources against a real Redis: the watermark only moves forward whatever the order
 * and concurrency of advances; runs, sweeps and resets read back through show and list; nothing
 * secret-shaped is stored.
 */
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { stableFeedId, watermarkSortKey } from '../../src/store/feed-sources.js';
import { createStore } from '../../src/store/store.js';
import { storePerTest } from '../helpers/store-per-test.js';

const t = storePerTest('sources');

const FEED = 'https://mls.example/odata/Property';
const FEED_ID = stableFeedId(FEED);

describe('replication sources', () => {
  it('compares timestamps as instants: offsets and fractions up to nanoseconds', () => {
    expect(watermarkSortKey('2024-05-01T10:00:00.5+02:00') > watermarkSortKey('2024-05-01T08:00:00.4Z')).toBe(true);
    expect(watermarkSortKey('2024-05-01T08:00:00.000000001Z') > watermarkSortKey('2024-05-01T08:00:00Z')).toBe(true);
    expect(watermarkSortKey('2024-05-01T08:00:00Z')).toBe(watermarkSortKey('2024-05-01T09:00:00+01:00'));
    for (const bad of ['2024-05-01', '2024-05-01T08:00:00', 'yesterday', '2024-13-01T00:00:00Z'])
      expect(() => watermarkSortKey(bad)).toThrow(/ISO 8601/);
  });

  it('moves the watermark only forward under concurrent advances from several connections', async () => {
    const base = Date.parse('2024-05-01T00:00:00Z');
    // 200 timestamps in shuffled order, half written with a +02:00 offset.
    const stamps = Array.from({ length: 200 }, (_, i) => base + ((i * 7919) % 200) * 1500 + 1);
    const iso = (ms: number, i: number): string =>
      i % 2 === 0 ? new Date(ms).toISOString() : new Date(ms + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const connections = [t.redis, new Redis(t.url), new Redis(t.url), new Redis(t.url)];
    try {
      const stores = connections.map((connection) => createStore(connection, t.prefix));
      const results = await Promise.all(
        stamps.map((ms, i) => stores[i % stores.length]!.feedSources.advanceWatermark('bot', FEED_ID, iso(ms, i))),
      );
      const latest = Math.max(...stamps);
      const shown = await t.store.feedSources.show('bot', FEED_ID);
      expect(Date.parse(shown!.watermark!)).toBe(latest);
      // Each reply says the watermark after the call, which never precedes the timestamp given.
      for (const [i, result] of results.entries()) expect(Date.parse(result.watermark)).toBeGreaterThanOrEqual(stamps[i]!);
      expect(await t.store.feedSources.advanceWatermark('bot', FEED_ID, new Date(latest - 1).toISOString())).toEqual({
        watermark: shown!.watermark,
        advanced: false,
      });
      expect((await t.store.feedSources.advanceWatermark('bot', FEED_ID, new Date(latest + 1).toISOString())).advanced).toBe(true);
    } finally {
      await Promise.all(connections.slice(1).map((connection) => connection.quit()));
    }
    t.pass();
  });

  it('round-trips runs, sweeps and resets through recordRun, show and list', async () => {
    const other = stableFeedId('https://mls.example/odata/Member');
    await t.store.feedSources.recordRun('bot-b', other, {
      feed: 'https://mls.example/odata/Member',
      runId: 'r0',
      status: 'done',
      recordsPulled: 1,
      requests: 1,
      bytes: 10,
    });
    await t.store.feedSources.advanceWatermark('bot-a', FEED_ID, '2024-05-01T00:00:00Z');
    const run = { feed: FEED, runId: 'r1', status: 'budget-exhausted' as const, recordsPulled: 500, requests: 5, bytes: 50_000 };
    await t.store.feedSources.recordRun('bot-a', FEED_ID, run);
    await t.store.feedSources.recordRun('bot-a', FEED_ID, run); // reported twice: counted once
    await t.store.feedSources.recordRun('bot-a', FEED_ID, {
      ...run,
      runId: 'r2',
      status: 'done',
      recordsPulled: 20,
      requests: 2,
      bytes: 3000,
      sweep: { complete: true, deleted: 3 },
    });
    const shown = await t.store.feedSources.show('bot-a', FEED_ID);
    expect(shown).toMatchObject({
      chatbot: 'bot-a',
      feedId: FEED_ID,
      feed: FEED,
      watermark: '2024-05-01T00:00:00Z',
      lastRun: { runId: 'r2', status: 'done', recordsPulled: 20, requests: 2, bytes: 3000 },
      totals: { runs: 2, recordsPulled: 520, requests: 7, bytes: 53_000 },
      lastSweep: { complete: true, deleted: 3 },
    });
    expect(shown!.lastRun!.at).toBe(shown!.lastSweep!.at);
    expect(Math.abs(shown!.lastRun!.at - Date.now())).toBeLessThan(5000);

    expect(await t.store.feedSources.reset('bot-a', FEED_ID)).toBe('2024-05-01T00:00:00Z');
    const afterReset = await t.store.feedSources.show('bot-a', FEED_ID);
    expect(afterReset!.watermark).toBeUndefined();
    expect(afterReset!.resetAt).toBeGreaterThan(0);
    expect(afterReset!.totals.runs).toBe(2);
    expect((await t.store.feedSources.advanceWatermark('bot-a', FEED_ID, '2020-01-01T00:00:00Z')).advanced).toBe(true);
    expect(await t.store.feedSources.reset('bot-none', FEED_ID)).toBeUndefined();
    expect(await t.store.feedSources.show('bot-none', FEED_ID)).toBeUndefined();

    const listed = await t.store.feedSources.list();
    expect(listed.map((s) => [s.chatbot, s.feedId, s.watermark])).toEqual([
      ['bot-a', FEED_ID, '2020-01-01T00:00:00Z'],
      ['bot-b', other, undefined],
    ]);
    expect(listed[1]).toMatchObject({ lastRun: { runId: 'r0', status: 'done' }, totals: { runs: 1, bytes: 10 } });
    expect(await t.redis.exists(`${t.prefix}:ls:source:{bot-a}:${FEED_ID}`)).toBe(1);
    t.pass();
  });

  it('stores no secret-shaped input: the display loses credentials and query, ids must be ids', async () => {
    await t.store.feedSources.recordRun('bot', FEED_ID, {
      feed: 'https://user:s3cret@mls.example/odata/Property?access_token=s3cret#frag',
      runId: 'r1',
      status: 'failed',
      recordsPulled: 0,
      requests: 1,
      bytes: 0,
    });
    await t.store.feedSources.recordRun('bot', 'path-feed', {
      feed: '/feeds/acme.json?sig=s3cret',
      runId: 'r1',
      status: 'done',
      recordsPulled: 0,
      requests: 0,
      bytes: 0,
    });
    expect((await t.store.feedSources.show('bot', FEED_ID))!.feed).toBe(FEED);
    expect((await t.store.feedSources.show('bot', 'path-feed'))!.feed).toBe('/feeds/acme.json');
    const stored = JSON.stringify([
      await t.redis.hgetall(t.store.keys.feedSource('bot', FEED_ID)),
      await t.redis.hgetall(t.store.keys.feedSource('bot', 'path-feed')),
      await t.redis.smembers(t.store.keys.feedSources()),
    ]);
    expect(stored).not.toContain('s3cret');
    await expect(t.store.feedSources.advanceWatermark('bot', 'https://u:s3cret@x/y', '2024-01-01T00:00:00Z')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(t.store.feedSources.advanceWatermark('bot', FEED_ID, 'not a time')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      t.store.feedSources.recordRun('bot', FEED_ID, { feed: FEED, runId: 'r2', status: 'done', recordsPulled: -1, requests: 0, bytes: 0 }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    t.pass();
  });
});
