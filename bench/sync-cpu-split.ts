/**
 * bench:sync's CPU split: one more `sync --work` of a larger feed (--long-creates, default four
 * times the rounds'), so that the CLI's CPU separates into what each further listing costs and
 * what the command pays once whatever its size (start-up, threads, JIT warm-up). Why: the target
 * compares CPU per listing at the rounds' size with the bare loop's per request; this shows how
 * much of the gap is the fixed part, which a longer run or a long-lived worker spreads thinner.
 */
import type { Block } from './benchmarks-md.js';
import type { CliWorkResult } from './sync-wire.js';

export interface CpuSplitRun {
  listings: number;
  run: CliWorkResult;
}

export interface CpuSplit {
  /** CPU ms of each listing beyond the rounds' size: (long CPU − rounds' CPU) ÷ (long − rounds' listings). */
  marginalMsPerListing: number;
  /** marginalMsPerListing ÷ the bare loop's CPU ms per request (rounds' median). */
  marginalRatio: number;
  /** CPU s the command pays once: rounds' CPU − listings × marginal. */
  fixedSeconds: number;
  /** The long run's CPU per listing, all of it. */
  longMsPerListing: number;
}

/**
 * The split from the rounds' median CPU (`shortCpuSeconds` for `shortListings`), the bare loop's
 * median CPU per request and the long run.
 */
export function cpuSplit(shortListings: number, shortCpuSeconds: number, bareMsPerRequest: number, long: CpuSplitRun): CpuSplit {
  const marginalMsPerListing = ((long.run.cli.cpuSeconds - shortCpuSeconds) * 1000) / (long.listings - shortListings);
  return {
    marginalMsPerListing,
    marginalRatio: marginalMsPerListing / bareMsPerRequest,
    fixedSeconds: shortCpuSeconds - (shortListings * marginalMsPerListing) / 1000,
    longMsPerListing: (long.run.cli.cpuSeconds * 1000) / long.listings,
  };
}

const f2 = (n: number): string => n.toFixed(2);

export function cpuSplitLine(split: CpuSplit, long: CpuSplitRun): string {
  return `CPU split: ${long.listings} listings ${f2(long.run.cli.cpuSeconds)} s = ${f2(split.longMsPerListing)} ms per listing; each further listing ${f2(split.marginalMsPerListing)} ms = ${f2(split.marginalRatio)}× the bare loop's per request; paid once per command ${f2(split.fixedSeconds)} s (${long.run.created} created, ${long.run.duplicateCreates} duplicate creates)`;
}

export function cpuSplitSection(split: CpuSplit, long: CpuSplitRun, shortListings: number): Block[] {
  return [
    { heading: 'CPU: paid once, and per listing' },
    `One more \`sync --work\` of ${long.listings} new listings after the rounds. Each further listing = (its CPU − the rounds' median ` +
      `CPU) ÷ (${long.listings} − ${shortListings}); paid once = the rounds' median CPU − ${shortListings} × that. Not a target: it shows ` +
      "how much of the CPU ratio is the command's fixed part (start-up, threads, JIT warm-up).",
    {
      head: [
        'listings',
        'CPU s',
        'CPU ms per listing',
        'each further listing ms',
        '÷ bare loop per request',
        'paid once per command s',
        'created / duplicate creates',
      ],
      align: ['r'],
      rows: [
        [
          long.listings,
          f2(long.run.cli.cpuSeconds),
          f2(split.longMsPerListing),
          f2(split.marginalMsPerListing),
          f2(split.marginalRatio),
          f2(split.fixedSeconds),
          `${long.run.created} / ${long.run.duplicateCreates}`,
        ],
      ],
    },
  ];
}
