/**
 * `npm run bench:plan`: importer and planner against bare csv-parse on one generated file (issue 3), then the display
 * policy's cost. Each phase runs as this script with --phase NAME ARGS, so its peak RSS is its own.
 * Usage: node dist/bench/plan.js [SIZE ...] [--runs N] [--no-write]   (SIZE like 100k, 1M or 250000; default 100k 1M)
 */
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFeedCsv, type FeedShape } from './generate-feed.js';
import { count, fixed, head, int, measuredTargets, publish, table, type Measured } from './benchmarks-md.js';
import { parseOptions, runJson } from './kit.js';
import { PHASES, runPhase, type PhaseArgs, type PhaseName, type PhaseResult } from './plan-phases.js';
import { displayParagraph, measureDisplay } from './plan-display.js';

const argv = process.argv.slice(2);
if (argv[0] === '--phase') {
  if (!(PHASES as readonly string[]).includes(argv[1] ?? '')) throw new Error(`unknown phase ${argv[1]}`);
  process.stdout.write(`${JSON.stringify(await runPhase(argv[1] as PhaseName, JSON.parse(argv[2] ?? '{}') as PhaseArgs))}\n`);
  process.exit(0);
}

const sizes: number[] = [];
const options = parseOptions(argv, { runs: 2, write: true }, (text) => {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text);
  if (match === null) throw new Error(`not a size: ${text} (use 100k, 1M or a number)`);
  sizes.push(Math.round(Number(match[1]) * ({ k: 1000, m: 1_000_000 }[match[2]?.toLowerCase() ?? ''] ?? 1)));
});
if (sizes.length === 0) sizes.push(100_000, 1_000_000);
sizes.sort((a, b) => a - b);

// --expose-gc only lets the import+plan phase collect the garbage of building its input before timing; nothing else calls gc().
const inChild = (phase: PhaseName, args: PhaseArgs): Promise<PhaseResult> =>
  runJson<PhaseResult>(fileURLToPath(import.meta.url), ['--phase', phase, JSON.stringify(args)], process.env, ['--expose-gc']);

/** The phases run `--runs` times, in this order (rss columns 0–3). */
const TIMED = ['baseline', 'importer', 'importer-worker', 'import-plan'] as const;
const fastest = (runs: readonly PhaseResult[]): PhaseResult => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
const highestRss = (runs: readonly PhaseResult[]): number => Math.max(...runs.map((run) => run.peakRssMiB));
const rate = (run: PhaseResult): number => run.rows / (run.ms / 1000);

async function measureSize(rows: number) {
  const shape: FeedShape = { listings: rows, seed: 42, profile: 'redfin' };
  const file = join(tmpdir(), `listing-sync-bench-redfin-${rows}-42.csv`);
  const written = await writeFeedCsv(file, shape);
  const args: PhaseArgs = { file, shape, expected: written.expected };
  const runs = TIMED.map((): PhaseResult[] => []);
  try {
    // Interleaved so that a noisy neighbour hurts the baseline and the subject alike.
    for (let run = 0; run < options.runs; run++) for (const [i, phase] of TIMED.entries()) runs[i]?.push(await inChild(phase, args));
    const planner = await inChild('planner', args);
    process.stderr.write(`${count(rows)} listings measured\n`);
    const [base, imp, inWorker, both] = runs.map(fastest);
    if (!base || !imp || !inWorker || !both) throw new Error('no runs');
    return {
      rows,
      fileMiB: written.bytes / 2 ** 20,
      base,
      importRatio: rate(imp) / rate(base),
      imp,
      inWorker,
      both,
      importPlanRatio: both.ms / base.ms,
      plannerPer100k: (planner.ms * 100_000) / planner.rows,
      plannerCpuPer100k: (planner.cpuMs * 100_000) / planner.rows,
      rss: [
        ...runs.map(highestRss),
        Number(both.extra.residentBeforeImportMiB),
        Math.max(...(runs[3] ?? []).map((run) => Number(run.extra.peakRssBeforeImportMiB))),
        planner.peakRssMiB,
      ],
      plan: `${String(both.extra.plan)}; planner rounds ${String(planner.extra.rounds)} ms`,
      mismatch: [both.extra.mismatch, planner.extra.mismatch].filter((text) => text !== '' && text !== undefined).join('; '),
    };
  } finally {
    await unlink(file).catch(() => undefined);
  }
}
type Size = Awaited<ReturnType<typeof measureSize>>;

function targets(all: readonly Size[]): Measured[] {
  const [small, large] = [all[0] as Size, all[all.length - 1] as Size];
  const [importerRss, importPlanRss, buildingRss] = [large.rss[1] ?? 0, large.rss[3] ?? 0, large.rss[5] ?? 0];
  const growth = importerRss / (small.rss[1] ?? 1);
  return [
    ...all.map((s): Measured => [`importer ≥ 0.5× csv-parse rows/s (${count(s.rows)})`, `${fixed(s.importRatio)}×`, s.importRatio >= 0.5]),
    // The issue sets this target for 1M listings; smaller sizes are in the figures table.
    [`${count(large.rows)} listings imported + planned < 2× csv-parse time`, `${fixed(large.importPlanRatio)}×`, large.importPlanRatio < 2],
    ...all.map((s): Measured => [
      `planner ≤ 1 s per 100k, wall (${count(s.rows)})`,
      `${int(s.plannerPer100k)} ms (cpu ${int(s.plannerCpuPer100k)} ms)`,
      s.plannerPer100k <= 1000,
    ]),
    [`importer peak RSS < 512 MiB (${count(large.rows)})`, `${int(importerRss)} MiB`, importerRss < 512],
    // "Flat" made concrete: at most 25% more at the largest size than at the smallest.
    ...(all.length > 1
      ? [[`importer peak RSS flat ${count(small.rows)} → ${count(large.rows)} (≤ 1.25×)`, `${fixed(growth)}×`, growth <= 1.25] as const]
      : []),
    [`import + plan peak RSS < 512 MiB (${count(large.rows)})`, `${int(importPlanRss)} MiB`, importPlanRss < 512],
    [`peak RSS while building the remote and the ledger first (${count(large.rows)})`, `${int(buildingRss)} MiB`],
  ];
}

const at = head('bench:plan', argv);
const all: Size[] = [];
for (const rows of sizes) all.push(await measureSize(rows));
const mismatches = all.map((s) => s.mismatch).filter((text) => text !== '');
const RSS_HEADS = [
  ...['csv-parse', 'importer', 'importer in a worker', 'import+plan'],
  ...['of which remote + ledger before import', 'building the remote + ledger (bench)', 'planner alone'],
];
await publish('bench:plan', at, options.write, [
  "Feed: generated CSV in the redfin profile's shape (the 27 columns of a Redfin export); remote snapshot of the same size with 1% changed, " +
    '0.5% new, 0.5% gone, and a ledger holding every remote listing (scope managed, mode mirror). The remote and the ledger are ' +
    'built in the import+plan process as a sync builds them, minus HTTP and Redis (read-shape pages JSON-parsed, validated and ' +
    'normalised; the ledger through its Redis entry encoding), then one full GC and the peak RSS reset, so the import+plan peak ' +
    'is that of its timed part. Import + plan time = the key index + the planner fed as rows arrive, the feed read as `sync` ' +
    'reads it. Each phase runs in its own child process (peak RSS = its maxRSS); csv-parse, importers and import+plan: best of ' +
    `${options.runs} runs; planner: best of 3 rounds on pre-built input.`,
  measuredTargets(targets(all)),
  { heading: 'Figures' },
  table(all, [
    ['listings', (s) => count(s.rows), 'r'],
    ['file MiB', (s) => int(s.fileMiB)],
    ['csv-parse rows/s', (s) => int(rate(s.base))],
    ['importer rows/s', (s) => int(rate(s.imp))],
    ['importer ÷ csv-parse', (s) => `${fixed(s.importRatio)}×`],
    ['importer in a worker rows/s (÷ csv-parse)', (s) => `${int(rate(s.inWorker))} (${fixed(rate(s.inWorker) / rate(s.base))}×)`],
    ['csv-parse s', (s) => fixed(s.base.ms / 1000, 1)],
    ['import+plan s', (s) => fixed(s.both.ms / 1000, 1)],
    ['import+plan ÷ csv-parse', (s) => `${fixed(s.importPlanRatio)}×`],
    ['finish() ms', (s) => int(Number(s.both.extra.finishMs))],
    ['planner ms / 100k (cpu)', (s) => `${int(s.plannerPer100k)} (${int(s.plannerCpuPer100k)})`],
  ]),
  { heading: 'Peak RSS, MiB' },
  table(all, [['listings', (s) => count(s.rows), 'r'], ...RSS_HEADS.map((label, i) => [label, (s: Size) => int(s.rss[i] ?? 0)] as const)]),
  [
    mismatches.length === 0
      ? "Plans matched the generator's expected counts at every size."
      : `**Plan mismatch:** ${mismatches.join('; ')}`,
    ...all.map((s) => `- ${count(s.rows)}: ${s.plan}`),
  ].join('\n'),
  displayParagraph(measureDisplay()),
]);
