/** bench:fairness's figures: one line per round on stdout, and its BENCHMARKS.md section. */
import type { FairnessOptions } from './fairness.js';
import { fixed, medianTargets, sectionBody, type SectionHead } from './benchmarks-md.js';

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

export function printRound(round: FairnessRound, options: FairnessOptions): void {
  process.stdout.write(
    `round ${round.index}: bare ${fixed(round.bare, 0)}/s · alone ${fixed(round.alone, 0)}/s (${fixed(round.alone / round.bare)}) · ` +
      `shared ${fixed(round.shared, 0)}/s (${fixed(round.shared / round.bare)}) · others done after ${round.migrationBeforeOthersDone} ` +
      `of the migration's ${options.migration} writes · ${round.ok ? 'complete, 0 duplicate creates' : 'INCOMPLETE or DUPLICATES'}\n`,
  );
}

export function fairnessSection(rounds: readonly FairnessRound[], options: FairnessOptions, head: SectionHead): string {
  const total = options.migration + options.others * options.otherListings;
  const done = rounds.map((r) => r.migrationBeforeOthersDone / options.migration);
  return sectionBody(head, [
    `Scenario: ${total} creates, ${options.concurrency} in flight, the simulator as its own process (bench/fairness-sim.ts, ` +
      `${options.latencyMs} ms latency), a fresh simulator and Redis prefix per measurement. Each round: the bare keep-alive loop ` +
      `(the same ${total} creates); "alone": one chatbot's ${total} creates queued by \`listing-sync sync\`, then one ` +
      `\`listing-sync worker --concurrency ${options.concurrency}\`; "shared": a ${options.migration}-listing migration queued first, ` +
      `then ${options.others} syncs of ${options.otherListings} listings of other chatbots, then the same worker. "Others done" = the ` +
      `migration's creates answered before the last create of the others, ÷ ${options.migration}. Verdicts on the median; range min–max.`,
    medianTargets([
      {
        name: 'shared writes/s ÷ alone writes/s (fairness costs no throughput) ≥ 0.95',
        values: rounds.map((r) => r.shared / r.alone),
        pass: (m) => m >= 0.95,
      },
      { name: 'shared writes/s ÷ bare loop', values: rounds.map((r) => r.shared / r.bare) },
      { name: 'alone writes/s ÷ bare loop', values: rounds.map((r) => r.alone / r.bare) },
      // Why the worst round, not the median: a chatbot left behind in any round is the defect.
      { name: "others done within the migration's first 25% of writes (worst round)", values: done, pass: () => Math.max(...done) <= 0.25 },
      { name: 'every listing present, 0 duplicate creates', values: [rounds.every((r) => r.ok) ? 1 : 0], pass: (m) => m === 1, digits: 0 },
    ]),
    { heading: 'Rounds' },
    {
      head: [
        'round',
        'load 1 min',
        'bare writes/s',
        'alone writes/s',
        '÷ bare',
        'shared writes/s',
        '÷ bare',
        'shared ÷ alone',
        'others done after (migration writes)',
        'max in flight',
      ],
      align: ['r'],
      rows: rounds.map((r) => [
        r.index,
        fixed(r.load),
        fixed(r.bare, 0),
        fixed(r.alone, 0),
        fixed(r.alone / r.bare),
        fixed(r.shared, 0),
        fixed(r.shared / r.bare),
        fixed(r.shared / r.alone),
        r.migrationBeforeOthersDone,
        r.maxInFlight,
      ]),
    },
  ]);
}
