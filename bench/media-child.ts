/**
 * One bench:media loop in its own process: `bare` (undici into files, the floor), `file` or `s3` (downloadPhoto); prints JSON.
 * Usage: node dist/bench/media-child.js MODE HOST_URL COUNT DIR [S3_BUCKET]
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { fileMediaStore } from '../src/feed/media/file-store.js';
import { hostHolds } from '../src/feed/media/host-holds.js';
import type { MediaStore } from '../src/feed/media/media-store.js';
import { downloadPhoto } from '../src/feed/media/photo-download.js';
import { s3MediaStore } from '../src/feed/media/s3-store.js';

const [mode = 'bare', host = '', countText = '0', dir = '', bucket = 'photos'] = process.argv.slice(2);
const count = Number(countText);
const limit = pLimit(8);
const urls = Array.from({ length: count }, (_, index) => `${host}/p/${index}.jpg`);
let store: MediaStore | undefined;
let one: (url: string, index: number) => Promise<number>;
if (mode === 'bare') {
  mkdirSync(dir, { recursive: true });
  const agent = new Agent({ connections: 32 });
  one = async (url, index) => {
    const { body } = await request(url, { dispatcher: agent });
    let bytes = 0;
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(body, createWriteStream(join(dir, `${index}.jpg`)));
    return bytes;
  };
} else {
  const endpoint = process.env.AWS_ENDPOINT_URL_S3;
  store =
    mode === 's3'
      ? s3MediaStore({ bucket, prefix: 'bench', url: `s3://${bucket}/bench`, ...(endpoint === undefined ? {} : { endpoint }) })
      : fileMediaStore(`file://${dir}`, dir);
  const settings = { store, holds: hostHolds(), timeoutMs: 60_000, maxBytes: 50 * 1024 * 1024 };
  one = async (url) => {
    const result = await downloadPhoto(url, settings);
    if (!result.ok) throw new Error(`download failed: ${result.reason}`);
    return result.bytes;
  };
}
const cpu = process.cpuUsage();
const started = performance.now();
const sizes = await Promise.all(urls.map((url, index) => limit(() => one(url, index))));
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
await store?.close();
const bytes = sizes.reduce((sum, size) => sum + size, 0);
const [cpuMs, peakRssMiB] = [(used.user + used.system) / 1000, process.resourceUsage().maxRSS / 1024];
process.stdout.write(`${JSON.stringify({ mode, photos: count, bytes, wallMs, cpuMs, peakRssMiB })}\n`);
