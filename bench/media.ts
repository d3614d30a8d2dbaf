/**
 * `npm run bench:media` (after `npm run build`): photos per second, MB/s, CPU per photo and peak
 * RSS of downloading 10,000 photos from a local media host into each store (file; S3 through
 * s3rver on loopback), against a bare undici-into-files loop in the same run (convention 15).
 * Usage: node dist/bench/media.js [--photos N] [--s3-photos N]
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { machineLine, writeSection } from './benchmarks-md.js';
import { mediaSection, type MediaRound } from './media-report.js';
import { startS3 } from './s3rver.js';

const run = promisify(execFile);
const MIN_BYTES = 20_000;
const MAX_BYTES = 200_000;

/** A photo of 20–200 KB, fixed per path, built once per size and served from memory. */
function photoOf(path: string): Buffer {
  const seed = createHash('sha256').update(path).digest();
  const size = MIN_BYTES + (seed.readUInt32BE(0) % (MAX_BYTES - MIN_BYTES));
  const out = Buffer.alloc(size, seed);
  out.set([0xff, 0xd8, 0xff, 0xe0], 0);
  seed.copy(out, 4);
  return out;
}

function option(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  const value = at < 0 ? undefined : Number(args[at + 1]);
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const photos = option(args, '--photos', 10_000);
  const s3Photos = option(args, '--s3-photos', photos);
  const machine = machineLine();
  const command = ['npm run bench:media', ...(args.length > 0 ? ['--', ...args] : [])].join(' ');
  console.error(`# ${machine}`);
  const host = createServer((req, res) => {
    const body = photoOf(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const s3 = await startS3('bench');
  const child = join(dirname(fileURLToPath(import.meta.url)), 'media-child.js');
  const rounds: MediaRound[] = [];
  try {
    for (const [mode, count] of [
      ['bare', photos],
      ['file', photos],
      ['s3', s3Photos],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), `bench-media-${mode}-`));
      try {
        const { stdout } = await run(process.execPath, [child, mode, hostUrl, String(count), dir, s3.bucket], {
          env: { ...process.env, ...s3.env },
          maxBuffer: 1024 * 1024,
        });
        const round = JSON.parse(stdout.trim()) as MediaRound;
        console.error(
          `  ${mode}: ${round.photos} photos in ${(round.wallMs / 1000).toFixed(2)} s, ` +
            `${(round.cpuMs / round.photos).toFixed(2)} ms CPU per photo, peak RSS ${round.peakRssMiB.toFixed(0)} MiB`,
        );
        rounds.push(round);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    host.closeAllConnections();
    host.close();
    await s3.close();
  }
  const body = mediaSection({ command, machine, date: new Date().toISOString(), photoBytes: { min: MIN_BYTES, max: MAX_BYTES }, rounds });
  console.log(body);
  await writeSection('Hosted photos (bench:media)', body);
  console.error('# wrote the Hosted photos section of BENCHMARKS.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
