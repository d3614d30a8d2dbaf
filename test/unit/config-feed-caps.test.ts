/** The feed URL caps (LISTING_SYNC_FEED_MAX_PAGES / _BYTES): defaults, overrides, bad values. */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/config.js';
import { DEFAULT_FEED_LIMITS } from '../../src/feed/open-feed.js';

describe('feed URL caps in the config', () => {
  it("default to 10,000 pages and 2 GiB, the importer's own defaults", () => {
    expect(resolveConfig({ env: {} }).feed).toEqual({ maxPages: 10_000, maxBytes: 2 * 1024 ** 3 });
    expect(resolveConfig({ env: {} }).feed).toEqual(DEFAULT_FEED_LIMITS);
  });

  it('are read from the environment', () => {
    expect(resolveConfig({ env: { LISTING_SYNC_FEED_MAX_PAGES: '50', LISTING_SYNC_FEED_MAX_BYTES: '1048576' } }).feed).toEqual({
      maxPages: 50,
      maxBytes: 1_048_576,
    });
  });

  it('refuse values that are not whole numbers of at least 1, naming each setting', () => {
    let message = '';
    try {
      resolveConfig({ env: { LISTING_SYNC_FEED_MAX_PAGES: '0', LISTING_SYNC_FEED_MAX_BYTES: '2GB' } });
    } catch (thrown) {
      message = (thrown as Error).message;
    }
    expect(message).toContain("LISTING_SYNC_FEED_MAX_PAGES: must be a whole number from 1 to 100000000 (got '0')");
    expect(message).toContain("LISTING_SYNC_FEED_MAX_BYTES: must be a whole number from 1 to 9007199254740991 (got '2GB')");
  });
});
