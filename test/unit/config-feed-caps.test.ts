/** The feed URL caps (LISTING_SYNC_FEED_MAX_PAGES / _BYTES): defaults, overrides, bad values. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { DEFAULT_FEED_LIMITS } from '../../src/feed/open-feed.js';

describe('feed URL caps in the config', () => {
  it("default to 10,000 pages and 2 GiB, the importer's own defaults", () => {
    expect(resolveConfig({ env: {} }).feed).toEqual({ maxPages: 10_000, maxBytes: 2 * 1024 ** 3, deadlineMs: 30 * 60_000 });
    expect(resolveConfig({ env: {} }).feed).toEqual(DEFAULT_FEED_LIMITS);
  });

  it('are read from the environment', () => {
    const env = { LISTING_SYNC_FEED_MAX_PAGES: '50', LISTING_SYNC_FEED_MAX_BYTES: '1048576', LISTING_SYNC_FEED_TIMEOUT: '90s' };
    expect(resolveConfig({ env }).feed).toEqual({ maxPages: 50, maxBytes: 1_048_576, deadlineMs: 90_000 });
    expect(resolveConfig({ env, flags: { feedTimeout: '2h' } }).feed.deadlineMs).toBe(7_200_000);
    expect(resolveConfig({ env: { LISTING_SYNC_FEED_TIMEOUT: '500ms' } }).feed.deadlineMs).toBe(500);
    expect(resolveConfig({ env: { LISTING_SYNC_FEED_TIMEOUT: '3' } }).feed.deadlineMs).toBe(3000);
  });

  it('refuse values that are not whole numbers of at least 1, naming each setting', () => {
    let message = '';
    try {
      resolveConfig({ env: { LISTING_SYNC_FEED_MAX_PAGES: '0', LISTING_SYNC_FEED_MAX_BYTES: '2GB', LISTING_SYNC_FEED_TIMEOUT: 'soon' } });
    } catch (thrown) {
      message = (thrown as Error).message;
    }
    expect(message).toContain("LISTING_SYNC_FEED_MAX_PAGES: must be a whole number from 1 to 100000000 (got '0')");
    expect(message).toContain("LISTING_SYNC_FEED_MAX_BYTES: must be a whole number from 1 to 9007199254740991 (got '2GB')");
    expect(message).toContain("LISTING_SYNC_FEED_TIMEOUT: must be a duration such as 90s, 10m or 2h (got 'soon')");
  });
});
