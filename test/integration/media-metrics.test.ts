/**
 * Photo download counters through real Redis (src/store/media-metrics.ts): what recorders of two
 * processes observed adds up in one hash, a recorder never closed (its run threw) still sends its
 * counts, and a reader gets downloads, bytes and failures by reason back.
 */
import { describe, expect, it } from 'vitest';
import { createMediaRecorder, readMediaMetrics } from '../../src/store/media-metrics.js';
import { storePerTest } from '../helpers/store-per-test.js';

const t = storePerTest('media-metrics');

describe('photo download counters', () => {
  it('add up across recorders, closed or not, as downloads, bytes and failures by reason', async () => {
    const closed = createMediaRecorder(t.redis, t.prefix);
    closed.observe({ ok: true, bytes: 1000 });
    closed.observe({ ok: true, bytes: 2500 });
    closed.observe({ ok: false, reason: 'timeout', bytes: 300 });
    expect(await readMediaMetrics(t.redis, t.prefix)).toEqual({ downloads: 0, bytes: 0, failures: {} });
    await closed.close();
    closed.observe({ ok: true, bytes: 99 });

    const abandoned = createMediaRecorder(t.redis, t.prefix, { flushMs: 20 });
    abandoned.observe({ ok: false, reason: 'expired', bytes: 0 });
    abandoned.observe({ ok: true, bytes: 500 });
    await expect
      .poll(() => readMediaMetrics(t.redis, t.prefix), { timeout: 5000 })
      .toEqual({ downloads: 3, bytes: 4300, failures: { timeout: 1, expired: 1 } });
    t.pass();
  });
});
