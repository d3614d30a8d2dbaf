/**
 * `npm run bench:media`: photos/s, MB/s, CPU per photo and peak RSS of downloading photos into each store (file; S3
 * via s3rver), against a bare undici-into-files loop in the same run, each loop in a process of its own (media-child.ts).
 * Usage: node dist/bench/media.js [--photos N] [--s3-photos N] [--no-write]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixed, head, publish, ratioText, table } from './benchmarks-md.js';
import { parseOptions, runJson } from './kit.js';
import { startS3 } from './s3rver.js';

const argv = process.argv.slice(2);
const options = parseOptions(argv, { photos: 10_000, s3Photos: 0, write: true });
const [MIN_BYTES, MAX_BYTES] = [20_000, 200_000];
const CHILD = fileURLToPath(new URL('./media-child.js', import.meta.url));
const LABELS: Readonly<Record<string, string>> = {
  bare: 'bare loop (undici → files)',
  file: 'file store (downloadPhoto)',
  s3: 's3 store (downloadPhoto → s3rver)',
};

/** A photo of 20–200 KB, fixed per path. */
function photoOf(path: string): Buffer {
  const seed = createHash('sha256').update(path).digest();
  const out = Buffer.alloc(MIN_BYTES + (seed.readUInt32BE(0) % (MAX_BYTES - MIN_BYTES)), seed);
  out.set([0xff, 0xd8, 0xff, 0xe0], 0);
  seed.copy(out, 4);
  return out;
}

type Round = Record<'photos' | 'bytes' | 'wallMs' | 'cpuMs' | 'peakRssMiB', number> & { mode: string };

const at = head('bench:media', argv);
const host = createServer((req, res) => {
  const body = photoOf(req.url ?? '/');
  res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
const s3 = await startS3('bench');
const rounds: Round[] = [];
try {
  const counts = { bare: options.photos, file: options.photos, s3: options.s3Photos || options.photos };
  for (const [mode, count] of Object.entries(counts)) {
    const dir = mkdtempSync(join(tmpdir(), `bench-media-${mode}-`));
    try {
      rounds.push(await runJson<Round>(CHILD, [mode, hostUrl, String(count), dir, s3.bucket], { ...process.env, ...s3.env }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  host.closeAllConnections();
  host.close();
  await s3.close();
}
const base = rounds.find((round) => round.mode === 'bare');
const perSecond = (round: Round): number => round.photos / (round.wallMs / 1000);
const cpuPerPhoto = (round: Round): number => round.cpuMs / round.photos;
await publish('Hosted photos (bench:media)', at, options.write, [
  `Photos of ${MIN_BYTES}–${MAX_BYTES} bytes from a local media host (node:http on loopback, in the ` +
    "parent process) downloaded 8 at a time by a child process per row, so CPU and peak RSS are the loop's own. The " +
    'baseline is the bare loop of the same invocation: undici `request` piped into one file per photo, nothing checked. ' +
    'The store rows go through `downloadPhoto` (src/feed/media/photo-download.ts): sha256 while streaming into a staged ' +
    'file, Content-Type and size checks, the retry loop, then the store (a rename; a PutObject of known length to s3rver ' +
    'on loopback, which runs in the parent and whose own CPU is not counted).',
  table(rounds, [
    ['loop', (r) => LABELS[r.mode] ?? r.mode],
    ['photos', (r) => r.photos],
    ['photos/s', (r) => fixed(perSecond(r), 0)],
    ['× baseline', (r) => ratioText(perSecond(r), base ? perSecond(base) : 0)],
    ['MB/s', (r) => fixed(r.bytes / 1e6 / (r.wallMs / 1000), 1)],
    ['CPU ms per photo', (r) => fixed(cpuPerPhoto(r))],
    ['CPU × baseline', (r) => ratioText(cpuPerPhoto(r), base ? cpuPerPhoto(base) : 0)],
    ['peak RSS MiB', (r) => fixed(r.peakRssMiB, 0)],
  ]),
]);
