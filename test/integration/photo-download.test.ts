/**
 * One photo download (src/feed/media/photo-download.ts) against a real HTTP server on loopback
 * into a file store in a temp directory: what is stored (by sha256), what is refused and why, a
 * 429's Retry-After holding later downloads to that host, 5xx repeated, a hanging host cut by the
 * deadline. Outcomes, not timings: holds are checked by the order the server saw requests in.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileMediaStore } from '../../src/feed/media/file-store.js';
import { hostHolds } from '../../src/feed/media/host-holds.js';
import { downloadPhoto, type DownloadSettings } from '../../src/feed/media/photo-download.js';
import { loopbackMediaHosts, type MediaHandler } from '../helpers/loopback-media-host.js';

const startHost = loopbackMediaHosts('ls-download-');

async function host(handler: MediaHandler): Promise<{ url: string; settings: DownloadSettings; dir: string; seen: string[] }> {
  const { url, dir, seen } = await startHost(handler);
  const settings: DownloadSettings = {
    store: fileMediaStore(`file://${dir}`, dir),
    holds: hostHolds(),
    timeoutMs: 2000,
    maxBytes: 100_000,
  };
  return { url, settings, dir, seen };
}

const bytes = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 256));
const sha = createHash('sha256').update(bytes).digest('hex');
const photo = (res: ServerResponse, type = 'image/jpeg', body = bytes): void => {
  res.writeHead(200, { 'content-type': type });
  res.end(body);
};

describe('downloadPhoto', () => {
  it('stores the bytes under their sha256 with the extension of their type, and sends the User-Agent given', async () => {
    let agent: string | undefined;
    const h = await host((req, res) => {
      agent = req.headers['user-agent'];
      photo(res, 'image/png; charset=binary');
    });
    const result = await downloadPhoto(`${h.url}/a.png`, { ...h.settings, userAgent: () => Promise.resolve('tok-123') });
    expect(result).toEqual({ ok: true, key: `${sha}.png`, bytes: bytes.length });
    expect(agent).toBe('tok-123');
    expect(
      createHash('sha256')
        .update(readFileSync(join(h.dir, `${sha}.png`)))
        .digest('hex'),
    ).toBe(sha);
  });

  it('refuses what is not an image, and what is larger than the cap (declared or not), leaving nothing staged', async () => {
    const h = await host((req, res) => {
      if (req.url === '/page') photo(res, 'text/html');
      else if (req.url === '/big') photo(res, 'image/jpeg', Buffer.alloc(200_000));
      else {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(Buffer.alloc(60_000));
        res.end(Buffer.alloc(60_000));
      }
    });
    expect(await downloadPhoto(`${h.url}/page`, h.settings)).toEqual({ ok: false, reason: 'not-an-image' });
    expect(await downloadPhoto(`${h.url}/big`, h.settings)).toEqual({ ok: false, reason: 'too-large' });
    expect(await downloadPhoto(`${h.url}/chunked`, h.settings)).toEqual({ ok: false, reason: 'too-large' });
    expect(readdirSync(join(h.dir, '.incoming'))).toEqual([]);
    expect(readdirSync(h.dir).filter((name) => name !== '.incoming')).toEqual([]);
  });

  it("repeats a 5xx, and a 429 after its Retry-After, holding that host's other downloads meanwhile", async () => {
    let failedB = false;
    const at: Array<[string, number]> = [];
    const h = await host((req, res, hit) => {
      at.push([req.url ?? '', Date.now()]);
      if (hit === 1) {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      } else if (req.url === '/b' && !failedB) {
        failedB = true;
        res.writeHead(503);
        res.end();
      } else photo(res);
    });
    const first = downloadPhoto(`${h.url}/a`, h.settings);
    // Asked while the host is held: it must not reach the server before /a is repeated.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = downloadPhoto(`${h.url}/b`, h.settings);
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
    expect(h.seen[0]).toBe('/a');
    expect(h.seen.slice(1).sort()).toEqual(['/a', '/b', '/b']);
    // A lower bound only (a slow machine passes too): /b reached the host no sooner than the 1 s it asked.
    const [, limitedAt = 0] = at[0] ?? [];
    const [, firstB = 0] = at.find(([url]) => url === '/b') ?? [];
    expect(firstB - limitedAt).toBeGreaterThanOrEqual(990);
  });

  it('gives up on a host that never answers at the deadline, as a timeout, without repeating it', async () => {
    const h = await host(() => undefined);
    expect(await downloadPhoto(`${h.url}/hang`, { ...h.settings, timeoutMs: 300 })).toEqual({ ok: false, reason: 'timeout' });
    expect(h.seen).toEqual(['/hang']);
  });

  it('answers a 403 or 410 as expired (the caller refreshes), a 404 as refused, neither repeated', async () => {
    const h = await host((req, res) => {
      res.writeHead(req.url === '/gone' ? 410 : req.url === '/old' ? 403 : 404);
      res.end();
    });
    expect(await downloadPhoto(`${h.url}/old`, h.settings)).toEqual({ ok: false, reason: 'expired', status: 403 });
    expect(await downloadPhoto(`${h.url}/gone`, h.settings)).toEqual({ ok: false, reason: 'expired', status: 410 });
    expect(await downloadPhoto(`${h.url}/none`, h.settings)).toEqual({ ok: false, reason: 'refused', status: 404 });
    expect(h.seen).toEqual(['/old', '/gone', '/none']);
  });
});
