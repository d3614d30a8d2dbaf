/**
 * The dashboard's photo views without a browser: a run's Photos card in words (nothing for a run
 * without a store, or a record of another shape), and a chatbot's Photos page with images from
 * the base URL only when there is one, hostile keys escaped, and a CSP widened to that origin alone.
 */
import { describe, expect, it } from 'vitest';
import { photosCard } from '../../src/dashboard/pages/run-photos.js';
import { photosCsp, photosPage } from '../../src/dashboard/pages/photos.js';

const ctx = { base: '', readOnly: true, csrfToken: 'x' };
const KEY = `${'a'.repeat(64)}.jpg`;
const HOSTILE = '<script>alert(1)</script>';

describe('the run page Photos card', () => {
  it('says hosted, reused and not fetched, with a row per host and reason naming what next', () => {
    const counts = {
      hosted: 59,
      reused: 3,
      notFetched: 2,
      bytes: 2048,
      refreshed: 0,
      failures: { 'media.mls.example': { timeout: 1, budget: 1 } },
    };
    const card = photosCard({ replication: { status: 'done', photos: counts } }).value;
    // A file feed's run keeps the same counts at the summary's top level.
    expect(photosCard({ photos: counts }).value).toBe(card);
    expect(card).toContain('59 downloaded and stored by this run');
    expect(card).toContain('2 photos: their listings show the others; they are fetched again by the next run');
    expect(card).toContain('2.0 KiB (2,048 bytes)');
    expect(card).not.toContain('Expired URLs refreshed');
    expect(card).toContain('--media-timeout');
    expect(card).toContain('media byte window');
    expect(photosCard({ replication: { status: 'done' } }).value).toBe('');
    expect(photosCard({ replication: { photos: { hosted: 'many' } } }).value).toBe('');
  });
});

describe("a chatbot's Photos page", () => {
  const shown = { listings: [{ listingKey: HOSTILE, objects: [KEY] }], total: 80 };

  it('shows images from the base URL, escapes keys, and says when it shows only some', () => {
    const page = photosPage(ctx, 'bot', shown, 'https://photos.example.test/p/');
    expect(page).toContain(`<img class="photo" src="https://photos.example.test/p/${KEY}"`);
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain('The first 1 of 80 listings.');
    expect(photosCsp('https://photos.example.test/p/')['content-security-policy']).toContain("img-src 'self' https://photos.example.test;");
  });

  it('without a base URL names the objects and the settings, with no image and no wider CSP', () => {
    const page = photosPage(ctx, 'bot', shown, undefined);
    expect(page).not.toContain('<img');
    expect(page).toContain(KEY);
    expect(page).toContain('LISTING_SYNC_MEDIA_BASE_URL');
    expect(photosCsp(undefined)).toEqual({});
    expect(photosCsp('javascript:alert(1)')).toEqual({});
    expect(photosPage(ctx, 'bot', { listings: [], total: 0 }, undefined)).toContain('No hosted photos recorded for bot');
  });
});
