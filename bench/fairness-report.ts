/**
 * bench:fairness's figures: one line per round on stdout, and the BENCHMARKS.md section (targets
 * judged on the median of the rounds, every round in a table).
 */
import type { FairnessOptions } from './fairness.js';

export interface FairnessRound {
  index: number;
  /** Load average (1 min) when the round began. */
  load: number;
  /** Writes/s of the bare keep-alive loop. */
  bare: number;
  /** Writes/s of one chatbot's creates, queued then worked. */
  alone: number;
  /** Writes/s of the migration and the others, queued then worked (all creates). */
  shared: number;
  /** The migration's creates answered before the last create of the others. */
  migrationBeforeOthersDone: number;
  /** Every listing present, no create twice, in both queued cases. */
  ok: boolean;
  maxInFlight: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const fixed = (value: number, digits = 2): string => value.toFixed(digits);

export function printRound(round: FairnessRound, options: FairnessOptions): void {
  process.stdout.write(
    `round ${round.index}: bare ${fixed(round.bare, 0)}/s · alone ${fixed(round.alone, 0)}/s (${fixed(round.alone / round.bare)}) · ` +
      `shared ${fixed(round.shared, 0)}/s (${fixed(round.shared / round.bare)}) · others done after ${round.migrationBeforeOthersDone} ` +
      `of the migration's ${options.migration} writes · ${round.ok ? 'complete, 0 duplicate creates' : 'INCOMPLETE or DUPLICATES'}\n`,
  );
}

export function fairnessSection(
  rounds: readonly FairnessRound[],
  options: FairnessOptions,
  meta: { command: string; machine: string; startedAt: string },
): string {
  const total = options.migration + options.others * options.otherListings;
  const sharedVsAlone = rounds.map((r) => r.shared / r.alone);
  const sharedVsBare = rounds.map((r) => r.shared / r.bare);
  const aloneVsBare = rounds.map((r) => r.alone / r.bare);
  const done = rounds.map((r) => r.migrationBeforeOthersDone / options.migration);
  const range = (values: readonly number[]): string => `${fixed(Math.min(...values))}–${fixed(Math.max(...values))}`;
  const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');
  return [
    `Command: \`${meta.command}\`  `,
    `Machine: ${meta.machine}  `,
    `Date: ${meta.startedAt}`,
    '',
    `Scenario: ${total} creates, ${options.concurrency} in flight, the simulator as its own process (bench/fairness-sim.ts) with ${options.latencyMs} ms latency, a fresh simulator and Redis prefix per measurement. Each round: the bare keep-alive loop (bench/bare-loop.ts, the same ${total} creates); "alone": one chatbot's ${total} creates queued by \`listing-sync sync\` (no --work), then one \`listing-sync worker --concurrency ${options.concurrency}\`; "shared": a ${options.migration}-listing migration queued first, then ${options.others} syncs of ${options.otherListings} listings of other chatbots, then the same worker. Writes/s timed by the simulator, first create answered → last. "Others done" = the migration's creates answered before the last create of the others, ÷ ${options.migration} (before fair turns: 1.00, every one).`,
    '',
    'Verdicts on the median of the rounds; the range is min–max.',
    '',
    '| target | median | range | verdict |',
    '|---|---:|---:|---|',
    `| shared writes/s ÷ alone writes/s (fairness costs no throughput) ≥ 0.95 | ${fixed(median(sharedVsAlone))} | ${range(sharedVsAlone)} | ${verdict(median(sharedVsAlone) >= 0.95)} |`,
    `| shared writes/s ÷ bare loop | ${fixed(median(sharedVsBare))} | ${range(sharedVsBare)} | — |`,
    `| alone writes/s ÷ bare loop | ${fixed(median(aloneVsBare))} | ${range(aloneVsBare)} | — |`,
    `| others done within the migration's first 25% of writes | ${fixed(median(done))} | ${range(done)} | ${verdict(Math.max(...done) <= 0.25)} |`,
    `| every listing present, 0 duplicate creates | ${rounds.every((r) => r.ok) ? 1 : 0} | — | ${verdict(rounds.every((r) => r.ok))} |`,
    '',
    '### Rounds',
    '',
    '| round | load 1 min | bare writes/s | alone writes/s | ÷ bare | shared writes/s | ÷ bare | shared ÷ alone | others done after (migration writes) | max in flight |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rounds.map(
      (r) =>
        `| ${r.index} | ${fixed(r.load)} | ${fixed(r.bare, 0)} | ${fixed(r.alone, 0)} | ${fixed(r.alone / r.bare)} | ${fixed(r.shared, 0)} | ${fixed(r.shared / r.bare)} | ${fixed(r.shared / r.alone)} | ${r.migrationBeforeOthersDone} | ${r.maxInFlight} |`,
    ),
  ].join('\n');
}
