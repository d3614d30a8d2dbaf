/**
 * bench:replicate figures → the verdict table, the figure tables and the BENCHMARKS.md section.
 * Every ratio is against the minimal figures of the same run: ceil(records ÷ maxTop) pages.
 */
import { minimalPages, type PullFigures } from './replicate-pull.js';
import type { Cluster, NightlyChange } from './replicate-scenario.js';

/** Everything one bench:replicate run measured. */
export interface ReplicateBench {
  command: string;
  machine: string;
  date: string;
  records: number;
  maxTop: number;
  tokenTtlSeconds: number;
  clusters: Cluster[];
  /** The full pulls; the first asks $top = maxTop with nextLink on, and its watermark starts the nightly pulls. */
  full: PullFigures[];
  nightly: NightlyChange;
  incremental: PullFigures[];
  sweep: PullFigures;
}

interface Verdict {
  target: string;
  measured: string;
  ok: boolean;
}

/** Rows measured for information: shown with their figures, no verdict, and never failing the run. */
const NOT_A_TARGET = '(not a target)';
const fixed = (value: number, digits = 2): string => value.toFixed(digits);
const mib = (bytes: number): string => fixed(bytes / 2 ** 20, 1);
const count = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const ratioOf = (pull: PullFigures, records: number, maxTop: number): number => pull.requests / minimalPages(records, maxTop);
const paging = (pull: PullFigures): string => (pull.spec.nextLink ? 'nextLink' : '$top/$skip');

function fullVerdicts(bench: ReplicateBench): Verdict[] {
  const { records, maxTop } = bench;
  const rows = bench.full.map((pull) => {
    const ratio = ratioOf(pull, records, maxTop);
    return {
      target: `${pull.spec.label}: requests ÷ minimal pages (${minimalPages(records, maxTop)}) = 1.00`,
      measured: `${pull.requests} ÷ ${minimalPages(records, maxTop)} = ${fixed(ratio)}`,
      ok: pull.requests === minimalPages(records, maxTop),
    };
  });
  const exact = bench.full.every(
    (pull) => pull.complete && pull.recordsServed === records && pull.distinctKeys === records && pull.refusals === 0,
  );
  rows.push({
    target: `every full pull: complete, each of the ${count(records)} records served and received once, no refused request (served / distinct keys / refused, per pull)`,
    measured: bench.full.map((pull) => `${pull.recordsServed}/${pull.distinctKeys}/${pull.refusals}`).join(', '),
    ok: exact,
  });
  return rows;
}

function nightlyVerdicts(bench: ReplicateBench): Verdict[] {
  const { records, maxTop } = bench;
  const changed = bench.nightly.keys.length;
  const ceiling = changed + maxTop;
  return bench.incremental.flatMap((pull) => {
    const missing = bench.nightly.keys.filter((key) => !pull.keys.has(key)).length;
    const pages = minimalPages(pull.recordsServed, maxTop);
    // Why not a target: the client always asks $count=true; this pull shows how paging ends without it.
    const prefix = pull.spec.count === false ? `${NOT_A_TARGET} ` : '';
    return [
      {
        target: `${prefix}${pull.spec.label}: records served ≤ 1% + one page (${changed} + ${maxTop} = ${ceiling})`,
        measured: `${pull.recordsServed} (${fixed((pull.recordsServed / records) * 100, 3)}% of ${count(records)})`,
        ok: pull.recordsServed <= ceiling,
      },
      {
        target: `${prefix}${pull.spec.label}: requests ÷ minimal pages for what it served = 1.00; every changed record received`,
        measured: `${pull.requests} ÷ ${pages} = ${fixed(pull.requests / pages)}; ${changed - missing}/${changed} changed`,
        ok: pull.requests === pages && missing === 0 && pull.complete && pull.refusals === 0,
      },
    ];
  });
}

function sweepVerdicts(bench: ReplicateBench): Verdict[] {
  const { sweep, records, maxTop } = bench;
  const first = bench.full[0] as PullFigures;
  return [
    {
      target: `sweep (key-only $select): requests ÷ minimal pages (${minimalPages(records, maxTop)}) = 1.00, every key once`,
      measured: `${sweep.requests} ÷ ${minimalPages(records, maxTop)} = ${fixed(ratioOf(sweep, records, maxTop))}; ${sweep.distinctKeys} keys`,
      ok: sweep.requests === minimalPages(records, maxTop) && sweep.distinctKeys === records && sweep.complete,
    },
    {
      target: `${NOT_A_TARGET} sweep bytes ÷ full pull bytes`,
      measured: `${mib(sweep.bytesServed)} ÷ ${mib(first.bytesServed)} MiB = ${fixed(sweep.bytesServed / first.bytesServed, 3)}`,
      ok: true,
    },
  ];
}

const informational = (verdict: Verdict): boolean => verdict.target.startsWith(NOT_A_TARGET);

/** Every verdict of the run, in table order. */
export function verdicts(bench: ReplicateBench): Verdict[] {
  return [...fullVerdicts(bench), ...nightlyVerdicts(bench), ...sweepVerdicts(bench)];
}

/** The targets missed (informational rows never count). */
export function missed(bench: ReplicateBench): Verdict[] {
  return verdicts(bench).filter((verdict) => !verdict.ok && !informational(verdict));
}

/** What the nightly pulls served beyond the changes: the watermark's `ge` re-read and the overlap. */
function nightlyNote(bench: ReplicateBench): string {
  const changed = bench.nightly.keys.length;
  const pull = bench.incremental[0];
  if (pull === undefined) return '';
  const extra = pull.recordsServed - changed;
  return `The ${changed} changed records alone fit ${minimalPages(changed, bench.maxTop)} page(s); overlap 0 also served ${extra} record(s) stamped at the watermark (\`ge\`, so a record written at that instant after the last pull read it is not lost), which made it ${minimalPages(pull.recordsServed, bench.maxTop)} page(s).`;
}

function verdictTable(bench: ReplicateBench): string[] {
  return [
    '| target | measured | verdict |',
    '|---|---|---|',
    ...verdicts(bench).map((v) => `| ${v.target} | ${v.measured} | ${informational(v) ? '—' : v.ok ? 'PASS' : 'FAIL'} |`),
  ];
}

function pullRow(pull: PullFigures, minimal: number): string {
  const seconds = pull.ms / 1000;
  return `| ${pull.spec.label} | ${pull.spec.pageSize} | ${paging(pull)} | ${pull.requests} | ${minimal} | ${fixed(pull.requests / minimal)} | ${pull.recordsServed} | ${pull.tokens} | ${fixed(seconds, 2)} | ${Math.round(pull.recordsReceived / seconds)} | ${mib(pull.bytesServed)} |`;
}

function figuresTable(bench: ReplicateBench): string[] {
  const { records, maxTop } = bench;
  return [
    '| pull | $top asked | paging | requests | minimal pages | ratio | records served | token requests | wall s | records/s | MiB served |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...bench.full.map((pull) => pullRow(pull, minimalPages(records, maxTop))),
    ...bench.incremental.map((pull) => pullRow(pull, minimalPages(pull.recordsServed, maxTop))),
    pullRow(bench.sweep, minimalPages(records, maxTop)),
  ];
}

function scenarioText(bench: ReplicateBench): string {
  const big = bench.clusters.reduce((a, b) => (b.size > a.size ? b : a), { start: 0, size: 0 });
  const small = bench.clusters.filter((cluster) => cluster !== big).length;
  const watermark = bench.full[0]?.maxTimestamp ?? '?';
  return [
    `Scenario: the RESO Web API simulator (src/sim/reso) in-process on port 0, ${count(bench.records)} seeded records (with photos, \`$expand=Media\`), ModificationTimestamps one minute apart except ${small} clusters of equal stamps straddling every tenth page boundary and one of ${big.size} records (positions ${big.start}–${big.start + big.size - 1}) straddling two; maxTop ${bench.maxTop} (a larger \`$top\` is capped silently).`,
    `Each pull runs the real client (\`replicate\` in src/feed/reso-api) to its end with OAuth client credentials (tokens living ${bench.tokenTtlSeconds} s, so each pull renews them; token requests are counted apart from Property requests); the simulator's counters are zeroed before each pull and read after it, so requests, records served and bytes are the server's count.`,
    `Wall time includes the simulator serving in the same process. Full pulls: $top = maxTop and $top = 5 × maxTop, each with nextLink on and off (off: the client pages by $top/$skip, resuming by the last stamp).`,
    `Nightly: ${bench.nightly.keys.length} records (1%) modified with stamps from 1 h after the first pull's watermark (${watermark}), then incremental pulls from that watermark: overlap 0 and the CLI's default 20 min (which re-reads the unchanged records stamped in the 20 min before the watermark), and overlap 0 with nextLink off. Each re-reads the record(s) stamped at the watermark (\`ge\`, by design). A fourth nightly pull, not a target, does not ask \`$count=true\` (as with a server that ignores it) to show how $top/$skip paging ends without a count. Sweep: key-only \`$select\` of every record, nextLink on, $top = maxTop.`,
  ].join(' ');
}

/** The BENCHMARKS.md section body (heading excluded). */
export function sectionBody(bench: ReplicateBench): string {
  return [
    `Command: \`${bench.command}\`  `,
    `Machine: ${bench.machine}  `,
    `Date: ${bench.date}`,
    '',
    scenarioText(bench),
    '',
    ...verdictTable(bench),
    '',
    '### Pulls',
    '',
    'Minimal pages = ceil(records ÷ maxTop): of the whole set for full pulls and the sweep, of the records served for incremental pulls.',
    '',
    ...figuresTable(bench),
    '',
    nightlyNote(bench),
  ].join('\n');
}

/** The same figures for the terminal. */
export function printable(bench: ReplicateBench): string {
  return [...verdictTable(bench), '', ...figuresTable(bench), '', nightlyNote(bench)].join('\n');
}
