/**
 * bench:replicate figures → the verdict table, the figure tables and the BENCHMARKS.md section.
 * Every ratio is against the minimal figures of the same run: ceil(records ÷ maxTop) pages.
 */
import {
  count,
  fixed,
  measuredTargets,
  printable as printBlocks,
  sectionBody as body,
  type Block,
  type Measured,
} from './benchmarks-md.js';
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
  /** The full pulls, by key and by the `$skip` baseline per server mode; the first is by key at Prefer maxTop, and its watermark starts the nightly pulls. */
  full: PullFigures[];
  nightly: NightlyChange;
  incremental: PullFigures[];
  sweep: PullFigures;
}

type Verdict = Measured;

const mib = (bytes: number): string => fixed(bytes / 2 ** 20, 1);
const ratioOf = (pull: PullFigures, records: number, maxTop: number): number => pull.requests / minimalPages(records, maxTop);
const isKey = (pull: PullFigures): boolean => pull.spec.paging === 'key';
const perSecond = (pull: PullFigures): number => pull.recordsReceived / (pull.ms / 1000);
/** Property and Media requests per 1,000 records received. */
const perThousand = (pull: PullFigures): number => ((pull.requests + pull.mediaRequests) / Math.max(1, pull.recordsReceived)) * 1000;
const serverOf = (pull: PullFigures): string => pull.spec.label.split('; ')[1] ?? '';
const receivedOf = (pull: PullFigures): string => `${pull.recordsReceived}/${pull.expected ?? '?'}`;

/** Per server mode: the pull by key at Prefer maxTop and the `$skip` baseline on the same server. */
function pairs(bench: ReplicateBench): Array<{ key: PullFigures; skip: PullFigures }> {
  return bench.full.flatMap((skip) => {
    const key = bench.full.find((pull) => isKey(pull) && pull.spec.server === skip.spec.server && pull.spec.pageSize === bench.maxTop);
    return isKey(skip) || key === undefined ? [] : [{ key, skip }];
  });
}

function fullVerdicts(bench: ReplicateBench): Verdict[] {
  const { records, maxTop } = bench;
  const byKey = bench.full.filter(isKey);
  const rows = byKey.map((pull) => ({
    target: `${pull.spec.label}: requests ÷ minimal pages (${minimalPages(records, maxTop)}) = 1.00`,
    measured: `${pull.requests} ÷ ${minimalPages(records, maxTop)} = ${fixed(ratioOf(pull, records, maxTop))}`,
    ok: pull.requests === minimalPages(records, maxTop) && pull.mediaRequests === 0,
  }));
  rows.push({
    target: `every full pull by key: complete, each of the ${count(records)} records served and received once, no refused request (served / distinct keys / refused, per pull)`,
    measured: byKey.map((pull) => `${pull.recordsServed}/${pull.distinctKeys}/${pull.refusals}`).join(', '),
    ok: byKey.every((pull) => pull.complete && pull.recordsServed === records && pull.distinctKeys === records && pull.refusals === 0),
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
    return [
      {
        target: `${pull.spec.label}: records served ≤ 1% + one page (${changed} + ${maxTop} = ${ceiling})`,
        measured: `${pull.recordsServed} (${fixed((pull.recordsServed / records) * 100, 3)}% of ${count(records)})`,
        ok: pull.recordsServed <= ceiling,
      },
      {
        target: `${pull.spec.label}: Property requests ÷ minimal pages for what it served = 1.00, + 1 Media request (photos changed alone); every changed record received`,
        measured: `${pull.requests} ÷ ${pages} = ${fixed(pull.requests / pages)} + ${pull.mediaRequests}; ${changed - missing}/${changed} changed`,
        ok: pull.requests === pages && pull.mediaRequests === 1 && missing === 0 && pull.complete && pull.refusals === 0,
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
      target: 'sweep bytes ÷ full pull bytes',
      measured: `${mib(sweep.bytesServed)} ÷ ${mib(first.bytesServed)} MiB = ${fixed(sweep.bytesServed / first.bytesServed, 3)}`,
    },
  ];
}

/** Every verdict of the run, in table order. */
export function verdicts(bench: ReplicateBench): Verdict[] {
  return [...fullVerdicts(bench), ...nightlyVerdicts(bench), ...sweepVerdicts(bench)];
}

/** The targets missed (rows shown for information never count). */
export function missed(bench: ReplicateBench): Verdict[] {
  return verdicts(bench).filter((verdict) => verdict.ok === false);
}

/** What the nightly pulls served beyond the changes: the watermark's `ge` re-read and the overlap. */
function nightlyNote(bench: ReplicateBench): string {
  const changed = bench.nightly.keys.length;
  const pull = bench.incremental[0];
  if (pull === undefined) return '';
  const extra = pull.recordsServed - changed;
  return `The ${changed} changed records alone fit ${minimalPages(changed, bench.maxTop)} page(s); overlap 0 also served ${extra} record(s) stamped at the watermark (\`ge\`, so a record written at that instant after the last pull read it is not lost), which made it ${minimalPages(pull.recordsServed, bench.maxTop)} page(s).`;
}

function pullRow(pull: PullFigures, minimal: number): Array<string | number> {
  const asked = isKey(pull) ? `Prefer ${pull.spec.pageSize}` : `$top ${pull.spec.pageSize}`;
  return [
    pull.spec.label,
    asked,
    pull.pagedBy,
    pull.requests,
    pull.mediaRequests,
    minimal,
    fixed(pull.requests / minimal),
    receivedOf(pull),
    pull.recordsServed,
    pull.tokens,
    fixed(pull.ms / 1000),
    Math.round(perSecond(pull)),
    fixed(perThousand(pull)),
    mib(pull.bytesServed),
  ];
}

function figuresTable(bench: ReplicateBench): Block {
  const { records, maxTop } = bench;
  return {
    head: [
      'pull',
      'page size asked',
      'paged by',
      'Property requests',
      'Media requests',
      'minimal pages',
      'ratio',
      'received / counted',
      'records served',
      'token requests',
      'wall s',
      'records/s',
      'requests / 1,000 records',
      'MiB served',
    ],
    align: ['l', 'l', 'l'],
    rows: [
      ...bench.full.map((pull) => pullRow(pull, minimalPages(records, maxTop))),
      ...bench.incremental.map((pull) => pullRow(pull, minimalPages(pull.recordsServed, maxTop))),
      pullRow(bench.sweep, minimalPages(records, maxTop)),
    ],
  };
}

/** Paging by key against the `$skip` baseline, server by server, on the same seeded records. */
function comparisonTable(bench: ReplicateBench): Block {
  return {
    head: [
      'server',
      'records/s by key',
      'records/s $skip',
      'key ÷ $skip',
      'requests / 1,000 records by key',
      '$skip',
      'key ÷ $skip',
      'received / counted by key',
      '$skip',
    ],
    rows: pairs(bench).map(({ key, skip }) => {
      const [keyRate, skipRate, keyCost, skipCost] = [perSecond(key), perSecond(skip), perThousand(key), perThousand(skip)];
      return [
        serverOf(skip),
        Math.round(keyRate),
        Math.round(skipRate),
        fixed(keyRate / skipRate),
        fixed(keyCost),
        fixed(skipCost),
        fixed(keyCost / skipCost),
        receivedOf(key),
        receivedOf(skip),
      ];
    }),
  };
}

function scenarioText(bench: ReplicateBench): string {
  const big = bench.clusters.reduce((a, b) => (b.size > a.size ? b : a), { start: 0, size: 0 });
  const small = bench.clusters.filter((cluster) => cluster !== big).length;
  const watermark = bench.full[0]?.maxTimestamp ?? '?';
  return [
    `Scenario: the RESO Web API simulator (src/sim/reso) in-process on port 0, ${count(bench.records)} seeded records (with photos, \`$expand=Media\`), ModificationTimestamps one minute apart except ${small} clusters of equal stamps straddling every tenth page boundary and one of ${big.size} records (positions ${big.start}–${big.start + big.size - 1}) straddling two; maxTop ${bench.maxTop} (a larger page is capped silently).`,
    `"By key" is the product: the real client (\`replicate\` in src/feed/reso-api) with OAuth client credentials (tokens living ${bench.tokenTtlSeconds} s, so each pull renews them; token requests are counted apart), asking its page size with \`Prefer: odata.maxpagesize\`, following nextLinks, and when they end continuing by (ModificationTimestamp, ListingKey) until \`@odata.count\` is reached. "$skip baseline" is the paging it replaced, a bare loop in bench/replicate-pull.ts: \`$top=${bench.maxTop}&$skip=S&$count=true\`, nextLinks ignored, until the count or a short page. The simulator's counters are zeroed before each pull and read after it, so requests, records served and bytes are the server's count; wall time includes the simulator serving in the same process, and the simulator evaluates \`$filter\` by scanning every record (no index), so each page continued by key costs it a scan of the whole collection, which a server with an index on (ModificationTimestamp, ListingKey) does not pay.`,
    `Full pulls, each server mode on the same records: \`$top\` as a page size with no nextLink (topSemantics 'pageSize', the server the baseline was written for), nextLink on (OData's default: \`$top\` a total, server-driven paging), and the \`$skip\` bug (\`$top=T&$skip=S\` answers T − S records and no nextLink).`,
    `Nightly: ${bench.nightly.keys.length} records (1%) modified with stamps from 1 h after the first pull's watermark (${watermark}), then incremental pulls by key from that watermark: overlap 0 and the CLI's default 20 min (which re-reads the unchanged records stamped in the 20 min before the watermark), and overlap 0 without nextLinks. Each re-reads the record(s) stamped at the watermark (\`ge\`, by design), and asks the Media resource once for photos changed alone since then. Sweep: key-only \`$select\` of every record by key, Prefer maxTop.`,
  ].join(' ');
}

function blocks(bench: ReplicateBench): Block[] {
  return [
    scenarioText(bench),
    measuredTargets(verdicts(bench)),
    { heading: 'Paging by key against `$skip` paging' },
    'Same run, same records, Prefer / `$top` = maxTop; requests / 1,000 records counts Property and Media requests.',
    comparisonTable(bench),
    { heading: 'Pulls' },
    'Minimal pages = ceil(records ÷ maxTop): of the whole set for full pulls and the sweep, of the records served for incremental pulls.',
    figuresTable(bench),
    nightlyNote(bench),
  ];
}

/** The BENCHMARKS.md section body (heading excluded). */
export function sectionBody(bench: ReplicateBench): string {
  return body(bench, blocks(bench));
}

/** The same figures for the terminal. */
export function printable(bench: ReplicateBench): string {
  return `${printBlocks(blocks(bench))}\n\n${nightlyNote(bench)}`;
}
