/**
 * `bench:plan` figures → the printed table and the BENCHMARKS.md section: every figure as a
 * ratio to the same-run csv-parse baseline where the target is one, next to its target.
 */
import {
  count,
  fixed,
  measuredTargets,
  printable as printBlocks,
  sectionBody as body,
  type Block,
  type Measured,
  type SectionHead,
} from './benchmarks-md.js';
import type { PhaseResult } from './plan-phases.js';

/** All measured runs of one feed size. */
export interface SizeResult {
  rows: number;
  fileMiB: number;
  baseline: PhaseResult[];
  importer: PhaseResult[];
  /** The importer in the worker thread a sync uses for a large local file. */
  importerWorker: PhaseResult[];
  importPlan: PhaseResult[];
  planner: PhaseResult;
}

export interface ReportContext extends SectionHead {
  runs: number;
  profile: string;
}

const fastest = (runs: readonly PhaseResult[]): PhaseResult => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
const highestRss = (runs: readonly PhaseResult[]): number => Math.max(...runs.map((run) => run.peakRssMiB));
const rate = (run: PhaseResult): number => run.rows / (run.ms / 1000);

/** The ratios and figures the targets are judged on, for one size. */
export function figures(size: SizeResult) {
  const base = fastest(size.baseline);
  const imp = fastest(size.importer);
  const inWorker = fastest(size.importerWorker);
  const both = fastest(size.importPlan);
  return {
    baseRate: rate(base),
    baseMs: base.ms,
    importRate: rate(imp),
    importRatio: rate(imp) / rate(base),
    workerRate: rate(inWorker),
    workerRatio: rate(inWorker) / rate(base),
    importPlanMs: both.ms,
    importPlanRatio: both.ms / base.ms,
    finishMs: Number(both.extra.finishMs),
    plannerPer100k: (size.planner.ms * 100_000) / size.planner.rows,
    plannerCpuPer100k: (size.planner.cpuMs * 100_000) / size.planner.rows,
    rss: {
      baseline: highestRss(size.baseline),
      importer: highestRss(size.importer),
      importerWorker: highestRss(size.importerWorker),
      importPlan: highestRss(size.importPlan),
      building: Math.max(...size.importPlan.map((run) => Number(run.extra.peakRssBeforeImportMiB))),
      planner: size.planner.peakRssMiB,
    },
    residentBeforeImport: Number(both.extra.residentBeforeImportMiB),
    plan: String(both.extra.plan),
    mismatch: [both.extra.mismatch, size.planner.extra.mismatch].filter((text) => text !== '' && text !== undefined).join('; '),
  };
}

const int = (n: number): string => fixed(n, 0);

function figuresTable(sizes: readonly SizeResult[]): Block {
  return {
    head: [
      'listings',
      'file MiB',
      'csv-parse rows/s',
      'importer rows/s',
      'importer ÷ csv-parse',
      'importer in a worker rows/s (÷ csv-parse)',
      'csv-parse s',
      'import+plan s',
      'import+plan ÷ csv-parse',
      'finish() ms',
      'planner ms / 100k (cpu)',
    ],
    align: ['r'],
    rows: sizes.map((size) => {
      const f = figures(size);
      return [
        count(size.rows),
        int(size.fileMiB),
        int(f.baseRate),
        int(f.importRate),
        `${fixed(f.importRatio)}×`,
        `${int(f.workerRate)} (${fixed(f.workerRatio)}×)`,
        fixed(f.baseMs / 1000, 1),
        fixed(f.importPlanMs / 1000, 1),
        `${fixed(f.importPlanRatio)}×`,
        int(f.finishMs),
        `${int(f.plannerPer100k)} (${int(f.plannerCpuPer100k)})`,
      ];
    }),
  };
}

function memoryTable(sizes: readonly SizeResult[]): Block {
  return {
    head: [
      'listings',
      'csv-parse',
      'importer',
      'importer in a worker',
      'import+plan',
      'of which remote + ledger before import',
      'building the remote + ledger (bench)',
      'planner alone',
    ],
    align: ['r'],
    rows: sizes.map((size) => {
      const { rss, residentBeforeImport } = figures(size);
      return [
        count(size.rows),
        ...[rss.baseline, rss.importer, rss.importerWorker, rss.importPlan, residentBeforeImport, rss.building, rss.planner].map(int),
      ];
    }),
  };
}

function targets(sizes: readonly SizeResult[]): Measured[] {
  const smallest = sizes[0] as SizeResult;
  const largest = sizes[sizes.length - 1] as SizeResult;
  const large = figures(largest);
  const rows: Measured[] = sizes.map((size) => {
    const f = figures(size);
    return {
      target: `importer ≥ 0.5× csv-parse rows/s (${count(size.rows)})`,
      measured: `${fixed(f.importRatio)}×`,
      ok: f.importRatio >= 0.5,
    };
  });
  // The issue sets this target for 1M listings; smaller sizes are in the figures table.
  rows.push({
    target: `${count(largest.rows)} listings imported + planned < 2× csv-parse time`,
    measured: `${fixed(large.importPlanRatio)}×`,
    ok: large.importPlanRatio < 2,
  });
  for (const size of sizes) {
    const f = figures(size);
    rows.push({
      target: `planner ≤ 1 s per 100k, wall (${count(size.rows)})`,
      measured: `${int(f.plannerPer100k)} ms (cpu ${int(f.plannerCpuPer100k)} ms)`,
      ok: f.plannerPer100k <= 1000,
    });
  }
  rows.push({
    target: `importer peak RSS < 512 MiB (${count(largest.rows)})`,
    measured: `${int(large.rss.importer)} MiB`,
    ok: large.rss.importer < 512,
  });
  if (sizes.length > 1) {
    const growth = large.rss.importer / figures(smallest).rss.importer;
    // "Flat" made concrete: at most 25% more at the largest size than at the smallest.
    rows.push({
      target: `importer peak RSS flat ${count(smallest.rows)} → ${count(largest.rows)} (≤ 1.25×)`,
      measured: `${fixed(growth)}×`,
      ok: growth <= 1.25,
    });
  }
  rows.push({
    target: `import + plan peak RSS < 512 MiB (${count(largest.rows)})`,
    measured: `${int(large.rss.importPlan)} MiB`,
    ok: large.rss.importPlan < 512,
  });
  rows.push({
    target: `peak RSS while building the remote and the ledger first (${count(largest.rows)})`,
    measured: `${int(large.rss.building)} MiB`,
  });
  return rows;
}

/** The BENCHMARKS.md section body (without its heading). */
export function sectionBody(context: ReportContext, sizes: readonly SizeResult[]): string {
  const mismatches = sizes.map((size) => figures(size).mismatch).filter((text) => text !== '');
  const profile = context.profile === 'redfin' ? ' (the 27 columns of a Redfin export)' : '';
  return body(context, [
    `Feed: generated CSV in the ${context.profile} profile's shape${profile}; remote snapshot of the same size with 1% changed, ` +
      '0.5% new, 0.5% gone, and a ledger holding every remote listing (scope managed, mode mirror). The remote and the ledger are ' +
      'built in the import+plan process as a sync builds them, minus HTTP and Redis (read-shape pages JSON-parsed, validated and ' +
      'normalised; the ledger through its Redis entry encoding), then one full GC and the peak RSS reset, so the import+plan peak ' +
      'is that of its timed part. Import + plan time = the key index + the planner fed as rows arrive, the feed read as `sync` ' +
      'reads it. Each phase runs in its own child process (peak RSS = its maxRSS); csv-parse, importers and import+plan: best of ' +
      `${context.runs} runs; planner: best of 3 rounds on pre-built input.`,
    measuredTargets(targets(sizes)),
    { heading: 'Figures' },
    figuresTable(sizes),
    { heading: 'Peak RSS, MiB' },
    memoryTable(sizes),
    [
      mismatches.length === 0
        ? "Plans matched the generator's expected counts at every size."
        : `**Plan mismatch:** ${mismatches.join('; ')}`,
      ...sizes.map((size) => `- ${count(size.rows)}: ${figures(size).plan}; planner rounds ${String(size.planner.extra.rounds)} ms`),
    ].join('\n'),
  ]);
}

/** The same figures for the terminal. */
export function printable(sizes: readonly SizeResult[]): string {
  return printBlocks([measuredTargets(targets(sizes)), figuresTable(sizes), { heading: 'Peak RSS, MiB' }, memoryTable(sizes)]);
}
