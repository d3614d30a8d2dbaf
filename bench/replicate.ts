/**
 * `npm run bench:replicate` (after `npm run build`): replication of 100k records from the RESO
 * simulator through the real client (paging by key), against the `$skip` paging it replaced on the
 * same records, and the targets of issue 11: requests ÷ minimal pages = 1.00 at the server's
 * largest page size, and a nightly pull with 1% changed touching ≤ 1% of the records + one page.
 * Writes the "bench:replicate" section of BENCHMARKS.md.
 *
 * Usage: node dist/bench/replicate.js [--records N] [--max-top N] [--seed N]
 */
import type { ResoConfigChange } from '../src/sim/reso/config.js';
import { machineLine, writeSection } from './benchmarks-md.js';
import { measurePull, type PullFigures, type PullSpec } from './replicate-pull.js';
import { missed, printable, sectionBody, type ReplicateBench } from './replicate-report.js';
import { applyNightlyChanges, startScenario, type Scenario, type ScenarioShape } from './replicate-scenario.js';

/** Token lifetime: short, so a 100k pull renews its token as a long one does at a real MLS. */
const TOKEN_TTL_SECONDS = 5;
/** The CLI's default --overlap (src/cli/input/replicate-options.ts). */
const DEFAULT_OVERLAP_MS = 20 * 60_000;

function parseOptions(argv: readonly string[]): ScenarioShape {
  const shape: ScenarioShape = { records: 100_000, maxTop: 1000, seed: 11 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = Number(argv[++i]);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${arg} needs a whole number ≥ 1`);
    if (arg === '--records') shape.records = value;
    else if (arg === '--max-top') shape.maxTop = value;
    else if (arg === '--seed') shape.seed = value;
    else throw new Error(`unknown option ${arg} (use --records N, --max-top N, --seed N)`);
  }
  return shape;
}

function describe(pull: PullFigures): string {
  const seconds = pull.ms / 1000;
  return `${pull.spec.label}: ${pull.requests} requests + ${pull.mediaRequests} Media (client ${pull.clientRequests}), ${pull.tokens} tokens, ${pull.recordsReceived}/${pull.expected ?? '?'} received in ${seconds.toFixed(2)} s (${Math.round(pull.recordsReceived / seconds)}/s), ${(pull.bytesServed / 2 ** 20).toFixed(1)} MiB, paged by ${pull.pagedBy}`;
}

async function pullLogged(scenario: Scenario, spec: PullSpec, keepKeys = false): Promise<PullFigures> {
  const pull = await measurePull(scenario, spec, keepKeys);
  console.error(`  ${describe(pull)}`);
  return pull;
}

/** The servers the full pulls meet; each is pulled by key and by the `$skip` baseline, on the same records. */
const SERVERS: ReadonlyArray<{ name: string; server: ResoConfigChange; capped: boolean }> = [
  { name: '$top as page size, no nextLink', server: { topSemantics: 'pageSize', nextLink: false }, capped: true },
  { name: 'nextLink (OData default)', server: {}, capped: true },
  { name: '$skip bug', server: { skipBug: true }, capped: false },
];

/** Per server: by key at Prefer maxTop (and 5 × maxTop, capped by the server), then the baseline at $top = maxTop. */
async function fullPulls(scenario: Scenario): Promise<PullFigures[]> {
  const { maxTop } = scenario.shape;
  const specs = SERVERS.flatMap(({ name, server, capped }): PullSpec[] => [
    ...(capped ? [maxTop, 5 * maxTop] : [maxTop]).map((pageSize): PullSpec => {
      const label = `full, by key, Prefer ${pageSize}${pageSize > maxTop ? ' (capped)' : ''}; ${name}`;
      return { label, paging: 'key', pageSize, server };
    }),
    { label: `full, $skip baseline, $top ${maxTop}; ${name}`, paging: 'skip', pageSize: maxTop, server },
  ]);
  const pulls: PullFigures[] = [];
  for (const spec of specs) pulls.push(await pullLogged(scenario, spec));
  return pulls;
}

/** Incremental pulls (by key) from `watermark` after the nightly changes. */
async function incrementalPulls(scenario: Scenario, watermark: string): Promise<PullFigures[]> {
  const pageSize = scenario.shape.maxTop;
  const base = { paging: 'key', pageSize, watermark } as const;
  const specs: PullSpec[] = [
    { ...base, label: 'nightly, overlap 0, nextLink', overlapMs: 0 },
    { ...base, label: 'nightly, overlap 20m, nextLink', overlapMs: DEFAULT_OVERLAP_MS },
    { ...base, label: 'nightly, overlap 0, no nextLink', overlapMs: 0, server: { topSemantics: 'pageSize', nextLink: false } },
  ];
  const pulls: PullFigures[] = [];
  for (const spec of specs) pulls.push(await pullLogged(scenario, spec, true));
  return pulls;
}

async function measure(shape: ScenarioShape, command: string, machine: string): Promise<ReplicateBench> {
  const seeding = performance.now();
  const scenario = await startScenario(shape, TOKEN_TTL_SECONDS);
  console.error(`# seeded ${shape.records} records in ${((performance.now() - seeding) / 1000).toFixed(1)} s; maxTop ${shape.maxTop}`);
  try {
    const full = await fullPulls(scenario);
    const watermark = full[0]?.maxTimestamp;
    if (watermark !== new Date(scenario.lastStampMs).toISOString())
      throw new Error(`the first pull's watermark ${String(watermark)} is not the last seeded stamp`);
    const nightly = applyNightlyChanges(scenario, scenario.lastStampMs, Math.round(shape.records / 100));
    const incremental = await incrementalPulls(scenario, watermark);
    const sweep = await pullLogged(scenario, { label: 'sweep, key-only $select', paging: 'key', pageSize: shape.maxTop, sweep: true });
    const { records, maxTop } = shape;
    const date = new Date().toISOString();
    return {
      command,
      machine,
      date,
      records,
      maxTop,
      tokenTtlSeconds: TOKEN_TTL_SECONDS,
      clusters: scenario.clusters,
      full,
      nightly,
      incremental,
      sweep,
    };
  } finally {
    await scenario.sim.close();
  }
}

async function main(): Promise<void> {
  const shape = parseOptions(process.argv.slice(2));
  const machine = machineLine();
  const command = ['npm run bench:replicate', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  console.error(`# ${machine}`);
  const bench = await measure(shape, command, machine);
  console.log(printable(bench));
  await writeSection('bench:replicate', sectionBody(bench));
  console.error('# wrote the bench:replicate section of BENCHMARKS.md');
  if (missed(bench).length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
