/**
 * `npm run bench:replicate`: RESO replication by key against the `$skip` paging it replaced, on the same records,
 * and issue 11's targets, every ratio against the same run's minimal pages (ceil(records ÷ maxTop)).
 * Usage: node dist/bench/replicate.js [--records N] [--max-top N] [--no-write]
 */
import type { ResoConfigChange } from '../src/sim/reso/config.js';
import { count, fixed, head, measuredTargets, publish, table, type Measured } from './benchmarks-md.js';
import { parseOptions } from './kit.js';
import { applyNightlyChanges, measurePull, minimalPages, startScenario, type PullFigures, type PullSpec } from './replicate-scenario.js';

const argv = process.argv.slice(2);
const { records, maxTop, write } = parseOptions(argv, { records: 100_000, maxTop: 1000, write: true });
// Why 5 s tokens: a 100k pull renews its token as a long one does at a real MLS.
const TOKEN_TTL_SECONDS = 5;
const DEFAULT_OVERLAP_MS = 20 * 60_000; // the CLI's default --overlap
/** The servers the full pulls meet, each pulled by key and by the `$skip` baseline. */
const SERVERS: ReadonlyArray<{ name: string; server: ResoConfigChange; capped: boolean }> = [
  { name: '$top as page size, no nextLink', server: { topSemantics: 'pageSize', nextLink: false }, capped: true },
  { name: 'nextLink (OData default)', server: {}, capped: true },
  { name: '$skip bug', server: { skipBug: true }, capped: false },
];

const at = head('bench:replicate', argv);
const scenario = await startScenario({ records, maxTop }, TOKEN_TTL_SECONDS);
const pulls = async (keepKeys: boolean, specs: readonly PullSpec[]): Promise<PullFigures[]> => {
  const out: PullFigures[] = [];
  for (const spec of specs) out.push(await measurePull(scenario, spec, keepKeys));
  return out;
};
let full: PullFigures[], incremental: PullFigures[], sweep: PullFigures, nightly: string[];
try {
  // Per server: by key at Prefer maxTop (and 5 × maxTop, capped by the server), then the baseline at $top = maxTop.
  const fullSpecs = SERVERS.flatMap(({ name, server, capped }): PullSpec[] => [
    ...(capped ? [maxTop, 5 * maxTop] : [maxTop]).map((pageSize): PullSpec => ({
      label: `full, by key, Prefer ${pageSize}${pageSize > maxTop ? ' (capped)' : ''}; ${name}`,
      paging: 'key',
      pageSize,
      server,
    })),
    { label: `full, $skip baseline, $top ${maxTop}; ${name}`, paging: 'skip', pageSize: maxTop, server },
  ]);
  full = await pulls(false, fullSpecs);
  const watermark = full[0]?.maxTimestamp ?? '';
  if (watermark !== new Date(scenario.lastStampMs).toISOString())
    throw new Error(`the first pull's watermark ${watermark} is not the last seeded stamp`);
  nightly = applyNightlyChanges(scenario, scenario.lastStampMs, Math.round(records / 100));
  const base = { paging: 'key', pageSize: maxTop, watermark } as const;
  incremental = await pulls(true, [
    { ...base, label: 'nightly, overlap 0, nextLink', overlapMs: 0 },
    { ...base, label: 'nightly, overlap 20m, nextLink', overlapMs: DEFAULT_OVERLAP_MS },
    { ...base, label: 'nightly, overlap 0, no nextLink', overlapMs: 0, server: { topSemantics: 'pageSize', nextLink: false } },
  ]);
  [sweep] = (await pulls(false, [{ label: 'sweep, key-only $select', paging: 'key', pageSize: maxTop, sweep: true }])) as [PullFigures];
} finally {
  await scenario.sim.close();
}

const minimal = minimalPages(records, maxTop);
const mib = (bytes: number): string => fixed(bytes / 2 ** 20, 1);
const isKey = (pull: PullFigures): boolean => pull.spec.paging === 'key';
const perSecond = (pull: PullFigures): number => pull.recordsReceived / (pull.ms / 1000);
const perThousand = (pull: PullFigures): number => ((pull.requests + pull.mediaRequests) / Math.max(1, pull.recordsReceived)) * 1000;
const receivedOf = (pull: PullFigures): string => `${pull.recordsReceived}/${pull.expected ?? '?'}`;
const byKey = full.filter(isKey);
const pagesOf = (p: PullFigures): number => (incremental.includes(p) ? minimalPages(p.recordsServed, maxTop) : minimal);
const changed = nightly.length;
const first = full[0] as PullFigures;

const verdicts: Measured[] = [
  ...byKey.map((p): Measured => [
    `${p.spec.label}: requests ÷ minimal pages (${minimal}) = 1.00`,
    `${p.requests} ÷ ${minimal} = ${fixed(p.requests / minimal)}`,
    p.requests === minimal && p.mediaRequests === 0,
  ]),
  [
    `every full pull by key: complete, each of the ${count(records)} records served and received once, no refused request (served / distinct keys / refused, per pull)`,
    byKey.map((pull) => `${pull.recordsServed}/${pull.distinctKeys}/${pull.refusals}`).join(', '),
    byKey.every((pull) => pull.complete && pull.recordsServed === records && pull.distinctKeys === records && pull.refusals === 0),
  ],
  ...incremental.flatMap((pull): Measured[] => {
    const missing = nightly.filter((key) => !pull.keys.has(key)).length;
    const pages = minimalPages(pull.recordsServed, maxTop);
    return [
      [
        `${pull.spec.label}: records served ≤ 1% + one page (${changed} + ${maxTop} = ${changed + maxTop})`,
        `${pull.recordsServed} (${fixed((pull.recordsServed / records) * 100, 3)}% of ${count(records)})`,
        pull.recordsServed <= changed + maxTop,
      ],
      [
        `${pull.spec.label}: Property requests ÷ minimal pages for what it served = 1.00, + 1 Media request (photos changed alone); every changed record received`,
        `${pull.requests} ÷ ${pages} = ${fixed(pull.requests / pages)} + ${pull.mediaRequests}; ${changed - missing}/${changed} changed`,
        pull.requests === pages && pull.mediaRequests === 1 && missing === 0 && pull.complete && pull.refusals === 0,
      ],
    ];
  }),
  [
    `sweep (key-only $select): requests ÷ minimal pages (${minimal}) = 1.00, every key once`,
    `${sweep.requests} ÷ ${minimal} = ${fixed(sweep.requests / minimal)}; ${sweep.distinctKeys} keys`,
    sweep.requests === minimal && sweep.distinctKeys === records && sweep.complete,
  ],
  [
    'sweep bytes ÷ full pull bytes',
    `${mib(sweep.bytesServed)} ÷ ${mib(first.bytesServed)} MiB = ${fixed(sweep.bytesServed / first.bytesServed, 3)}`,
  ],
];

const pairs = full.flatMap((skip) => {
  const key = full.find((pull) => isKey(pull) && pull.spec.server === skip.spec.server && pull.spec.pageSize === maxTop);
  return isKey(skip) || key === undefined ? [] : [{ key, skip }];
});
const big = scenario.clusters.reduce((a, b) => (b.size > a.size ? b : a), { start: 0, size: 0 });
const extra = (incremental[0]?.recordsServed ?? changed) - changed;
const missed = await publish('bench:replicate', at, write, [
  `Scenario: the RESO Web API simulator (src/sim/reso) in-process on port 0, ${count(records)} seeded records (with photos, \`$expand=Media\`), ModificationTimestamps one minute apart except ${scenario.clusters.length - 1} clusters of equal stamps straddling every tenth page boundary and one of ${big.size} records (positions ${big.start}–${big.start + big.size - 1}) straddling two; maxTop ${maxTop} (a larger page is capped silently). ` +
    `"By key" is the product: the real client (\`replicate\` in src/feed/reso-api) with OAuth client credentials (tokens living ${TOKEN_TTL_SECONDS} s, so each pull renews them; token requests are counted apart), asking its page size with \`Prefer: odata.maxpagesize\`, following nextLinks, and when they end continuing by (ModificationTimestamp, ListingKey) until \`@odata.count\` is reached. "$skip baseline" is the paging it replaced, a bare loop in bench/replicate-scenario.ts: \`$top=${maxTop}&$skip=S&$count=true\`, nextLinks ignored, until the count or a short page. The simulator's counters are zeroed before each pull and read after it, so requests, records served and bytes are the server's count; wall time includes the simulator serving in the same process, and the simulator evaluates \`$filter\` by scanning every record (no index), so each page continued by key costs it a scan of the whole collection, which a server with an index on (ModificationTimestamp, ListingKey) does not pay. ` +
    `Full pulls, each server mode on the same records: \`$top\` as a page size with no nextLink (topSemantics 'pageSize', the server the baseline was written for), nextLink on (OData's default: \`$top\` a total, server-driven paging), and the \`$skip\` bug (\`$top=T&$skip=S\` answers T − S records and no nextLink). ` +
    `Nightly: ${changed} records (1%) modified with stamps from 1 h after the first pull's watermark (${first.maxTimestamp ?? '?'}), then incremental pulls by key from that watermark: overlap 0 and the CLI's default 20 min (which re-reads the unchanged records stamped in the 20 min before the watermark), and overlap 0 without nextLinks. Each re-reads the record(s) stamped at the watermark (\`ge\`, by design), and asks the Media resource once for photos changed alone since then. Sweep: key-only \`$select\` of every record by key, Prefer maxTop.`,
  measuredTargets(verdicts),
  { heading: 'Paging by key against `$skip` paging' },
  'Same run, same records, Prefer / `$top` = maxTop; requests / 1,000 records counts Property and Media requests.',
  table(pairs, [
    ['server', ({ skip }) => skip.spec.label.split('; ')[1] ?? ''],
    ['records/s by key', ({ key }) => Math.round(perSecond(key))],
    ['records/s $skip', ({ skip }) => Math.round(perSecond(skip))],
    ['key ÷ $skip', ({ key, skip }) => fixed(perSecond(key) / perSecond(skip))],
    ['requests / 1,000 records by key', ({ key }) => fixed(perThousand(key))],
    ['$skip', ({ skip }) => fixed(perThousand(skip))],
    ['key ÷ $skip', ({ key, skip }) => fixed(perThousand(key) / perThousand(skip))],
    ['received / counted by key', ({ key }) => receivedOf(key)],
    ['$skip', ({ skip }) => receivedOf(skip)],
  ]),
  { heading: 'Pulls' },
  'Minimal pages = ceil(records ÷ maxTop): of the whole set for full pulls and the sweep, of the records served for incremental pulls.',
  table(
    [...full, ...incremental, sweep],
    [
      ['pull', (p) => p.spec.label],
      ['page size asked', (p) => `${isKey(p) ? 'Prefer' : '$top'} ${p.spec.pageSize}`, 'l'],
      ['paged by', (p) => p.pagedBy, 'l'],
      ['Property requests', (p) => p.requests],
      ['Media requests', (p) => p.mediaRequests],
      ['minimal pages', pagesOf],
      ['ratio', (p) => fixed(p.requests / pagesOf(p))],
      ['received / counted', receivedOf],
      ['records served', (p) => p.recordsServed],
      ['token requests', (p) => p.tokens],
      ['wall s', (p) => fixed(p.ms / 1000)],
      ['records/s', (p) => Math.round(perSecond(p))],
      ['requests / 1,000 records', (p) => fixed(perThousand(p))],
      ['MiB served', (p) => mib(p.bytesServed)],
    ],
  ),
  `The ${changed} changed records alone fit ${minimalPages(changed, maxTop)} page(s); overlap 0 also served ${extra} record(s) stamped at the watermark (\`ge\`, so a record written at that instant after the last pull read it is not lost), which made it ${minimalPages(changed + extra, maxTop)} page(s).`,
]);
if (missed) process.exitCode = 1;
