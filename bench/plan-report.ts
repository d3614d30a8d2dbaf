/**
 * `bench:plan` figures → the printed table and the BENCHMARKS.md section: every figure as a
 * ratio to the same-run csv-parse baseline where the target is one, next to its target.
 */
import type { PhaseResult } from './plan-phases.js';

/** All measured runs of one feed size. */
export interface SizeResult {
  rows: number;
  fileMiB: number;
  baseline: PhaseResult[];
  importer: PhaseResult[];
  importPlan: PhaseResult[];
  planner: PhaseResult;
}

export interface ReportContext {
  command: string;
  machine: string;
  date: string;
  runs: number;
  profile: string;
}

const fastest = (runs: readonly PhaseResult[]): PhaseResult => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
const highestRss = (runs: readonly PhaseResult[]): number => Math.max(...runs.map((run) => run.peakRssMiB));
const rate = (run: PhaseResult): number => run.rows / (run.ms / 1000);
const count = (n: number): string => (n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const fixed = (n: number, digits = 0): string => n.toFixed(digits);
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');

/** The ratios and figures the targets are judged on, for one size. */
export function figures(size: SizeResult) {
  const base = fastest(size.baseline);
  const imp = fastest(size.importer);
  const both = fastest(size.importPlan);
  return {
    baseRate: rate(base),
    baseMs: base.ms,
    importRate: rate(imp),
    importRatio: rate(imp) / rate(base),
    importPlanMs: both.ms,
    importPlanRatio: both.ms / base.ms,
    finishMs: Number(both.extra.finishMs),
    plannerPer100k: (size.planner.ms * 100_000) / size.planner.rows,
    plannerCpuPer100k: (size.planner.cpuMs * 100_000) / size.planner.rows,
    rss: { baseline: highestRss(size.baseline), importer: highestRss(size.importer), importPlan: highestRss(size.importPlan), planner: size.planner.peakRssMiB },
    residentBeforeImport: Number(both.extra.residentBeforeImportMiB),
    plan: String(both.extra.plan),
    mismatch: [both.extra.mismatch, size.planner.extra.mismatch].filter((text) => text !== '' && text !== undefined).join('; '),
  };
}

function figuresTable(sizes: readonly SizeResult[]): string[] {
  const lines = [
    '| listings | file MiB | csv-parse rows/s | importer rows/s | importer ÷ csv-parse | csv-parse s | import+plan s | import+plan ÷ csv-parse | finish() ms | planner ms / 100k (cpu) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const size of sizes) {
    const f = figures(size);
    lines.push(
      `| ${count(size.rows)} | ${fixed(size.fileMiB)} | ${fixed(f.baseRate)} | ${fixed(f.importRate)} | ${fixed(f.importRatio, 2)}× | ${fixed(f.baseMs / 1000, 1)} | ${fixed(f.importPlanMs / 1000, 1)} | ${fixed(f.importPlanRatio, 2)}× | ${fixed(f.finishMs)} | ${fixed(f.plannerPer100k)} (${fixed(f.plannerCpuPer100k)}) |`,
    );
  }
  return lines;
}

function memoryTable(sizes: readonly SizeResult[]): string[] {
  const lines = [
    '| listings | csv-parse | importer | import+plan | of which remote + ledger before import | planner alone | planner\'s remote index (heap) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const size of sizes) {
    const f = figures(size);
    lines.push(`| ${count(size.rows)} | ${fixed(f.rss.baseline)} | ${fixed(f.rss.importer)} | ${fixed(f.rss.importPlan)} | ${fixed(f.residentBeforeImport)} | ${fixed(f.rss.planner)} | ${fixed(Number(size.planner.extra.indexMiB), 1)} |`);
  }
  return lines;
}

function targetsTable(sizes: readonly SizeResult[]): string[] {
  const lines = ['| target | measured | verdict |', '|---|---|---|'];
  const smallest = sizes[0] as SizeResult;
  const largest = sizes[sizes.length - 1] as SizeResult;
  for (const size of sizes) {
    const f = figures(size);
    lines.push(`| importer ≥ 0.5× csv-parse rows/s (${count(size.rows)}) | ${fixed(f.importRatio, 2)}× | ${verdict(f.importRatio >= 0.5)} |`);
  }
  for (const size of sizes) {
    const f = figures(size);
    lines.push(`| import + plan < 2× csv-parse time (${count(size.rows)}) | ${fixed(f.importPlanRatio, 2)}× | ${verdict(f.importPlanRatio < 2)} |`);
  }
  for (const size of sizes) {
    const f = figures(size);
    lines.push(`| planner ≤ 1 s per 100k, wall (${count(size.rows)}) | ${fixed(f.plannerPer100k)} ms (cpu ${fixed(f.plannerCpuPer100k)} ms) | ${verdict(f.plannerPer100k <= 1000)} |`);
  }
  const large = figures(largest);
  lines.push(`| importer peak RSS < 512 MiB (${count(largest.rows)}) | ${fixed(large.rss.importer)} MiB | ${verdict(large.rss.importer < 512)} |`);
  if (sizes.length > 1) {
    const growth = large.rss.importer / figures(smallest).rss.importer;
    // "Flat" made concrete: at most 25% more at the largest size than at the smallest.
    lines.push(`| importer peak RSS flat ${count(smallest.rows)} → ${count(largest.rows)} (≤ 1.25×) | ${fixed(growth, 2)}× | ${verdict(growth <= 1.25)} |`);
  }
  lines.push(`| import + plan peak RSS < 512 MiB (${count(largest.rows)}) | ${fixed(large.rss.importPlan)} MiB | ${verdict(large.rss.importPlan < 512)} |`);
  return lines;
}

/** The BENCHMARKS.md section body (without its heading). */
export function sectionBody(context: ReportContext, sizes: readonly SizeResult[]): string {
  const mismatches = sizes.map((size) => figures(size).mismatch).filter((text) => text !== '');
  return [
    `Command: \`${context.command}\`  `,
    `Machine: ${context.machine}  `,
    `Date: ${context.date}`,
    '',
    `Feed: generated CSV in the ${context.profile} profile's shape${context.profile === 'redfin' ? ' (the 27 columns of a Redfin export)' : ''}, in the OS temp directory; remote snapshot of the same size with 1% changed, 0.5% new, 0.5% gone, and a ledger holding every remote listing (scope managed, mode mirror). The remote and the ledger are built in the import+plan process as a sync builds them, minus HTTP: the remote as read-shape pages of 100 items, each JSON-serialised, JSON.parse'd, validated with the api client's schema, normalised (normaliseReadItem) and added to the snapshot's RemoteTable by its own page collector; the ledger through the Redis entry encoding. Each phase runs in its own child process (peak RSS = that process's maxRSS). csv-parse, importer and import+plan: best of ${context.runs} runs each; planner: best of 3 rounds on pre-built input.`,
    '',
    ...targetsTable(sizes),
    '',
    '### Figures',
    '',
    ...figuresTable(sizes),
    '',
    '### Peak RSS, MiB',
    '',
    ...memoryTable(sizes),
    '',
    ...(mismatches.length === 0 ? ['Plans matched the generator\'s expected counts at every size.'] : [`**Plan mismatch:** ${mismatches.join('; ')}`]),
    ...sizes.map((size) => `- ${count(size.rows)}: ${figures(size).plan}; planner rounds ${String(size.planner.extra.rounds)} ms`),
  ].join('\n');
}

/** The same figures for the terminal. */
export function printable(sizes: readonly SizeResult[]): string {
  return [...targetsTable(sizes), '', ...figuresTable(sizes), '', 'Peak RSS, MiB:', ...memoryTable(sizes)].join('\n');
}
