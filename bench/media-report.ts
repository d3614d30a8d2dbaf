/** The bench:media section of BENCHMARKS.md: photos from a local media host into each store, against a bare undici-into-files loop. */

export interface MediaRound {
  mode: string;
  photos: number;
  bytes: number;
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
}

export interface MediaBench {
  command: string;
  machine: string;
  date: string;
  photoBytes: { min: number; max: number };
  rounds: MediaRound[];
}

const LABELS: Readonly<Record<string, string>> = {
  bare: 'bare loop (undici → files)',
  file: 'file store (downloadPhoto)',
  s3: 's3 store (downloadPhoto → s3rver)',
};

const ratio = (value: number, base: number): string => (base > 0 ? `${(value / base).toFixed(2)}×` : '-');

export function mediaSection(bench: MediaBench): string {
  const base = bench.rounds.find((round) => round.mode === 'bare');
  const perSecond = (round: MediaRound): number => round.photos / (round.wallMs / 1000);
  const rows = bench.rounds.map((round) => {
    const mbPerSecond = round.bytes / 1e6 / (round.wallMs / 1000);
    const cpuPerPhoto = round.cpuMs / round.photos;
    return (
      `| ${LABELS[round.mode] ?? round.mode} | ${round.photos} | ${perSecond(round).toFixed(0)} | ` +
      `${base === undefined ? '-' : ratio(perSecond(round), perSecond(base))} | ${mbPerSecond.toFixed(1)} | ` +
      `${cpuPerPhoto.toFixed(2)} | ${base === undefined ? '-' : ratio(cpuPerPhoto, base.cpuMs / base.photos)} | ${round.peakRssMiB.toFixed(0)} |`
    );
  });
  return [
    `\`${bench.command}\` · ${bench.date} · ${bench.machine}`,
    '',
    `Photos of ${bench.photoBytes.min}–${bench.photoBytes.max} bytes from a local media host (node:http on loopback, in the ` +
      "parent process) downloaded 8 at a time by a child process per row, so CPU and peak RSS are the loop's own. The " +
      'baseline is the bare loop of the same invocation: undici `request` piped into one file per photo, nothing checked. ' +
      'The store rows go through `downloadPhoto` (src/feed/media/photo-download.ts): sha256 while streaming into a staged ' +
      'file, Content-Type and size checks, the retry loop, then the store (a rename; a PutObject of known length to s3rver ' +
      'on loopback, which runs in the parent and whose own CPU is not counted).',
    '',
    '| loop | photos | photos/s | × baseline | MB/s | CPU ms per photo | CPU × baseline | peak RSS MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
