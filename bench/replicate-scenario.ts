// bench:replicate's scenario: N records a minute apart, clusters of equal stamps straddling page boundaries (one larger than a
// page), a night's changes to 1%, and each pull measured alone: 'key' (the product) or 'skip' (the baseline).
import { replicate } from '../src/feed/reso-api/replicate.js';
import { clientCredentialsTokens, type TokenProvider } from '../src/feed/reso-api/token-provider.js';
import type { ResoConfigChange } from '../src/sim/reso/config.js';
import { startResoSimulator, type RunningResoSimulator } from '../src/sim/reso/server.js';

/** What the bench seeds; maxTop: the simulator's largest page (it caps a larger $top silently). */
export type ScenarioShape = Record<'records' | 'maxTop', number>;

/** Records sharing one ModificationTimestamp, at positions [start, start + size). */
export type Cluster = Record<'start' | 'size', number>;

export interface Scenario {
  shape: ScenarioShape;
  sim: RunningResoSimulator;
  /** ListingKeys in replication order, and the last stamp (a full pull's watermark). */
  keys: string[];
  clusters: Cluster[];
  lastStampMs: number;
}

const STEP_MS = 60_000;
const SMALL_CLUSTER = 8;

/** SMALL_CLUSTER records straddling every tenth page boundary, and 2.5 pages at the middle (a cursor resuming inside one stamp). */
function clustersOf(shape: Pick<ScenarioShape, 'records' | 'maxTop'>): Cluster[] {
  const { records, maxTop } = shape;
  const big: Cluster = { start: Math.floor(records / 2 / maxTop) * maxTop - Math.floor(maxTop * 0.7), size: Math.floor(maxTop * 2.5) };
  const clusters: Cluster[] = [];
  for (let boundary = 10 * maxTop; boundary < records - SMALL_CLUSTER; boundary += 10 * maxTop) {
    const cluster = { start: boundary - SMALL_CLUSTER / 2, size: SMALL_CLUSTER };
    if (cluster.start + cluster.size <= big.start || cluster.start >= big.start + big.size) clusters.push(cluster);
  }
  if (big.start > 0 && big.start + big.size < records) clusters.push(big);
  return clusters.sort((a, b) => a.start - b.start);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Seeds `records` in stamp order: spread runs a minute apart, each cluster at one stamp. Returns the keys and the last stamp. */
function seedRecords(sim: RunningResoSimulator, records: number, clusters: readonly Cluster[], endMs: number) {
  const keys: string[] = [];
  let at = endMs - (records - 1) * STEP_MS;
  let position = 0;
  const spread = (count: number): void => {
    if (count <= 0) return;
    keys.push(...sim.state.records.seed({ count, startAt: iso(at), stepMs: STEP_MS }));
    at += count * STEP_MS;
    position += count;
  };
  for (const cluster of clusters) {
    spread(cluster.start - position);
    keys.push(...sim.state.records.seed({ count: cluster.size, timestamp: iso(at) }));
    at += STEP_MS;
    position += cluster.size;
  }
  spread(records - position);
  return { keys, lastStampMs: at - STEP_MS };
}

/** Starts and seeds the simulator; the last record stamped two days ago, so the nightly changes are after it yet past. */
export async function startScenario(shape: ScenarioShape, tokenTtlSeconds: number): Promise<Scenario> {
  const sim = await startResoSimulator({ port: 0, seed: 11, maxTop: shape.maxTop, tokenTtlSeconds });
  const clusters = clustersOf(shape);
  const endMs = Math.floor(Date.now() / STEP_MS) * STEP_MS - 2 * 86_400_000;
  const { keys, lastStampMs } = seedRecords(sim, shape.records, clusters, endMs);
  if (keys.length !== shape.records) throw new Error(`seeded ${keys.length} records, not ${shape.records}`);
  return { shape, sim, keys, clusters, lastStampMs };
}

/** A night's changes at an MLS: `count` records spread over the order, ten per stamp, from `watermarkMs` + 1 h, 5 min apart. */
export function applyNightlyChanges(scenario: Scenario, watermarkMs: number, count: number): string[] {
  const stride = Math.floor(scenario.keys.length / count);
  const keys = Array.from({ length: count }, (_, index) => scenario.keys[index * stride + ((index * 37) % stride)] as string);
  for (let index = 0; index < keys.length; index += 10)
    scenario.sim.state.records.modify({
      keys: keys.slice(index, index + 10),
      timestamp: iso(watermarkMs + 3_600_000 + (index / 10) * 300_000),
    });
  return keys;
}

/** The server as a pull finds it: OData's defaults, then the spec's changes. */
const ODATA_DEFAULT: ResoConfigChange = { nextLink: true, topSemantics: 'total', skipBug: false, honourMaxPageSize: true };

export interface PullSpec {
  label: string;
  paging: 'key' | 'skip';
  /** 'key': Prefer: odata.maxpagesize; 'skip': every page's `$top` (the server caps either at maxTop). */
  pageSize: number;
  server?: ResoConfigChange;
  watermark?: string;
  overlapMs?: number;
  sweep?: boolean;
}

/** What one pull cost: the simulator's counters (requests: Property only; refusals: 401, 429, 5xx, 400) and the pull's result. */
type Counts =
  'requests' | 'mediaRequests' | 'tokens' | 'refusals' | 'recordsServed' | 'recordsReceived' | 'distinctKeys' | 'bytesServed' | 'ms';
export interface PullFigures extends Record<Counts, number> {
  spec: PullSpec;
  expected: number | undefined;
  complete: boolean;
  maxTimestamp: string | undefined;
  pagedBy: string;
  /** Kept for the nightly pulls only. */
  keys: Set<string>;
}

type Pulled = Pick<PullFigures, 'expected' | 'complete' | 'maxTimestamp' | 'pagedBy'>;
type Rows = Array<Record<string, unknown>>;

/** The product: `replicate()` to its end. */
async function keyPull(scenario: Scenario, spec: PullSpec, tokens: TokenProvider, onPage: (rows: Rows) => void): Promise<Pulled> {
  const run = replicate({
    propertyUrl: scenario.sim.propertyUrl,
    tokens,
    pageSize: spec.pageSize,
    ...(spec.sweep === true ? { sweep: true } : {}),
    ...(spec.watermark === undefined ? {} : { watermark: spec.watermark, overlapMs: spec.overlapMs ?? 0 }),
  });
  for await (const page of run.pages) onPage(page);
  const { complete, maxTimestamp, expected, pagedBy } = run.result();
  return { expected, complete, maxTimestamp, pagedBy: pagedBy ?? 'one page' };
}

/** The baseline: `$top`/`$skip` pages of a full pull, ended by the count or a short page. */
async function skipPull(scenario: Scenario, spec: PullSpec, tokens: TokenProvider, onPage: (rows: Rows) => void): Promise<Pulled> {
  let skip = 0;
  let expected: number | undefined;
  for (;;) {
    const query = `$orderby=ModificationTimestamp,ListingKey&$expand=Media&$count=true&$top=${spec.pageSize}&$skip=${skip}`;
    const response = await fetch(`${scenario.sim.propertyUrl}?${query}`, { headers: { authorization: await tokens.authorization() } });
    if (!response.ok) throw new Error(`$skip baseline: HTTP ${response.status} at $skip=${skip}`);
    const body = (await response.json()) as { value: Rows; '@odata.count'?: number };
    expected ??= body['@odata.count'];
    onPage(body.value);
    skip += body.value.length;
    if (body.value.length < spec.pageSize || (expected !== undefined && skip >= expected)) break;
  }
  return { expected, complete: expected !== undefined && skip >= expected, maxTimestamp: undefined, pagedBy: '$top/$skip' };
}

/** Runs one pull to its end and measures it. */
export async function measurePull(scenario: Scenario, spec: PullSpec, keepKeys = false): Promise<PullFigures> {
  const { sim } = scenario;
  sim.state.configure({ ...ODATA_DEFAULT, ...spec.server });
  sim.state.reset();
  const tokens = clientCredentialsTokens({ tokenUrl: sim.tokenUrl, ...sim.credentials });
  const seen = new Set<string>();
  let received = 0;
  const onPage = (rows: Rows): void => {
    received += rows.length;
    for (const row of rows) seen.add(String(row.ListingKey));
  };
  const started = performance.now();
  const pulled = await (spec.paging === 'key' ? keyPull : skipPull)(scenario, spec, tokens, onPage);
  const ms = performance.now() - started;
  const counters = sim.state.counters();
  const mediaRequests = sim.state.requests().filter((entry) => entry.url.startsWith('/odata/Media')).length;
  return {
    ...pulled,
    spec,
    requests: counters.requests - mediaRequests,
    mediaRequests,
    tokens: counters.tokensIssued,
    refusals: counters.unauthorized + counters.tooManyRequests + counters.serverErrors + counters.badRequests,
    recordsServed: counters.recordsServed,
    recordsReceived: received,
    distinctKeys: seen.size,
    bytesServed: counters.bytesServed,
    ms,
    keys: keepKeys ? seen : new Set(),
  };
}

/** The fewest pages that hold `records` at `maxTop` a page (at least one: an empty answer is a request too). */
export const minimalPages = (records: number, maxTop: number): number => Math.max(1, Math.ceil(records / maxTop));
