/**
 * One measured bench:replicate pull: the real replication client (OAuth client credentials, the
 * default budget and retry policies) against the scenario's simulator, with the simulator's
 * counters zeroed before and read after, so every figure is this pull's alone.
 */
import { replicate } from '../src/feed/reso-api/replicate.js';
import { clientCredentialsTokens } from '../src/feed/reso-api/token-provider.js';
import type { Scenario } from './replicate-scenario.js';

/** How one pull is asked for. */
export interface PullSpec {
  label: string;
  /** `$top` the client asks (the server caps it at maxTop). */
  pageSize: number;
  /** Whether the server's pages carry @odata.nextLink (else the client pages by $top/$skip). */
  nextLink: boolean;
  watermark?: string;
  overlapMs?: number;
  sweep?: boolean;
  /** Ask `$count=true` on the first page (default true, as the product does); false acts as a server that ignores it. */
  count?: boolean;
}

/** What one pull cost, from the simulator's counters and the client's result. */
export interface PullFigures {
  spec: PullSpec;
  /** Requests to the Property resource, as the simulator counted them. */
  requests: number;
  /** Requests the client says it sent (must equal `requests`). */
  clientRequests: number;
  /** Token requests answered by the token endpoint (not counted in `requests`). */
  tokens: number;
  /** 401, 429, 5xx and 400 answers (0 expected). */
  refusals: number;
  /** Property records in answered pages. */
  recordsServed: number;
  /** Records the client handed its caller, and how many distinct ListingKeys among them. */
  recordsReceived: number;
  distinctKeys: number;
  bytesServed: number;
  ms: number;
  complete: boolean;
  maxTimestamp: string | undefined;
  pagedBy: string;
  /** `$top` in use at the end (the served size after a silent cap). */
  finalPageSize: number;
  /** The keys received (kept for the nightly pulls, empty otherwise). */
  keys: Set<string>;
}

/** Runs one pull to its end and measures it. */
export async function measurePull(scenario: Scenario, spec: PullSpec, keepKeys = false): Promise<PullFigures> {
  const { sim } = scenario;
  sim.state.configure({ nextLink: spec.nextLink });
  sim.state.reset();
  const tokens = clientCredentialsTokens({
    tokenUrl: sim.tokenUrl,
    clientId: sim.credentials.clientId,
    clientSecret: sim.credentials.clientSecret,
  });
  const run = replicate({
    propertyUrl: sim.propertyUrl,
    tokens,
    pageSize: spec.pageSize,
    ...(spec.sweep === true ? { sweep: true } : {}),
    ...(spec.count === false ? { count: false } : {}),
    ...(spec.watermark === undefined ? {} : { watermark: spec.watermark, overlapMs: spec.overlapMs ?? 0 }),
  });
  const seen = new Set<string>();
  let received = 0;
  const started = performance.now();
  for await (const page of run.pages) {
    received += page.length;
    for (const row of page) seen.add(String(row.ListingKey));
  }
  const ms = performance.now() - started;
  const counters = sim.state.counters();
  const result = run.result();
  return {
    spec,
    requests: counters.requests,
    clientRequests: result.requests,
    tokens: counters.tokensIssued,
    refusals: counters.unauthorized + counters.tooManyRequests + counters.serverErrors + counters.badRequests,
    recordsServed: counters.recordsServed,
    recordsReceived: received,
    distinctKeys: seen.size,
    bytesServed: counters.bytesServed,
    ms,
    complete: result.complete,
    maxTimestamp: result.maxTimestamp,
    pagedBy: result.pagedBy ?? 'one page',
    finalPageSize: result.pageSize,
    keys: keepKeys ? seen : new Set(),
  };
}

/** The fewest pages that hold `records` at `maxTop` a page (at least one: an empty answer is a request too). */
export const minimalPages = (records: number, maxTop: number): number => Math.max(1, Math.ceil(records / maxTop));
