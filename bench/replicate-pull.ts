/**
 * One measured bench:replicate pull against the scenario's simulator in a given server mode, with
 * the simulator's counters zeroed before and read after, so every figure is this pull's alone:
 * - 'key': the product, the real replication client (OAuth client credentials, the default budget
 *   and retry policies): `Prefer: odata.maxpagesize`, nextLinks, then by key to `@odata.count`;
 * - 'skip': the baseline the product replaced, a bare loop paging `$top=N&$skip=S` with
 *   `$count=true`, ignoring nextLinks, until the count or a short page.
 */
import { replicate } from '../src/feed/reso-api/replicate.js';
import { clientCredentialsTokens, type TokenProvider } from '../src/feed/reso-api/token-provider.js';
import type { ResoConfigChange } from '../src/sim/reso/config.js';
import type { Scenario } from './replicate-scenario.js';

/** The server as a pull finds it: OData's defaults, then the spec's changes. */
const ODATA_DEFAULT: ResoConfigChange = { nextLink: true, topSemantics: 'total', skipBug: false, honourMaxPageSize: true };

/** How one pull is asked for. */
export interface PullSpec {
  label: string;
  paging: 'key' | 'skip';
  /** 'key': asked with Prefer: odata.maxpagesize; 'skip': the `$top` of every page. The server caps it at maxTop. */
  pageSize: number;
  /** Server modes changed from OData's defaults for this pull (nextLink, topSemantics, skipBug). */
  server?: ResoConfigChange;
  watermark?: string;
  overlapMs?: number;
  sweep?: boolean;
}

/** What one pull cost, from the simulator's counters and the pull's own result. */
export interface PullFigures {
  spec: PullSpec;
  /** Requests to the Property resource, as the simulator counted them. */
  requests: number;
  /** Requests to the Media resource (an incremental asks once for photos changed alone). */
  mediaRequests: number;
  /** Requests the pull says it sent (must equal requests + mediaRequests). */
  clientRequests: number;
  /** Token requests answered by the token endpoint (not counted in `requests`). */
  tokens: number;
  /** 401, 429, 5xx and 400 answers (0 expected). */
  refusals: number;
  /** Property records in answered pages. */
  recordsServed: number;
  /** Records handed to the caller, distinct ListingKeys among them, and what the server counted. */
  recordsReceived: number;
  distinctKeys: number;
  expected: number | undefined;
  bytesServed: number;
  ms: number;
  complete: boolean;
  maxTimestamp: string | undefined;
  pagedBy: string;
  /** The keys received (kept for the nightly pulls, empty otherwise). */
  keys: Set<string>;
}

type Pulled = Pick<PullFigures, 'clientRequests' | 'expected' | 'complete' | 'maxTimestamp' | 'pagedBy'>;
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
  const result = run.result();
  const { complete, maxTimestamp, requests, expected } = result;
  return { clientRequests: requests, expected, complete, maxTimestamp, pagedBy: result.pagedBy ?? 'one page' };
}

/** The baseline: `$top`/`$skip` pages of a full pull, ended by the count or a short page. */
async function skipPull(scenario: Scenario, spec: PullSpec, tokens: TokenProvider, onPage: (rows: Rows) => void): Promise<Pulled> {
  let skip = 0;
  let requests = 0;
  let expected: number | undefined;
  for (;;) {
    const query = `$orderby=ModificationTimestamp,ListingKey&$expand=Media&$count=true&$top=${spec.pageSize}&$skip=${skip}`;
    const response = await fetch(`${scenario.sim.propertyUrl}?${query}`, { headers: { authorization: await tokens.authorization() } });
    requests += 1;
    if (!response.ok) throw new Error(`$skip baseline: HTTP ${response.status} at $skip=${skip}`);
    const body = (await response.json()) as { value: Rows; '@odata.count'?: number };
    expected ??= body['@odata.count'];
    onPage(body.value);
    skip += body.value.length;
    if (body.value.length < spec.pageSize || (expected !== undefined && skip >= expected)) break;
  }
  const complete = expected !== undefined && skip >= expected;
  return { clientRequests: requests, expected, complete, maxTimestamp: undefined, pagedBy: '$top/$skip' };
}

/** Runs one pull to its end and measures it. */
export async function measurePull(scenario: Scenario, spec: PullSpec, keepKeys = false): Promise<PullFigures> {
  const { sim } = scenario;
  sim.state.configure({ ...ODATA_DEFAULT, ...spec.server });
  sim.state.reset();
  const tokens = clientCredentialsTokens({
    tokenUrl: sim.tokenUrl,
    clientId: sim.credentials.clientId,
    clientSecret: sim.credentials.clientSecret,
  });
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
  const { clientRequests, expected, complete, maxTimestamp, pagedBy } = pulled;
  return {
    spec,
    requests: counters.requests - mediaRequests,
    mediaRequests,
    clientRequests,
    tokens: counters.tokensIssued,
    refusals: counters.unauthorized + counters.tooManyRequests + counters.serverErrors + counters.badRequests,
    recordsServed: counters.recordsServed,
    recordsReceived: received,
    distinctKeys: seen.size,
    expected,
    bytesServed: counters.bytesServed,
    ms,
    complete,
    maxTimestamp,
    pagedBy,
    keys: keepKeys ? seen : new Set(),
  };
}

/** The fewest pages that hold `records` at `maxTop` a page (at least one: an empty answer is a request too). */
export const minimalPages = (records: number, maxTop: number): number => Math.max(1, Math.ceil(records / maxTop));
