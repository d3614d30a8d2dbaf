/**
 * The bench:replicate scenario: a RESO simulator seeded with N records whose
 * ModificationTimestamps are spread a minute apart, with clusters of equal stamps straddling page
 * boundaries (one larger than a page), and the nightly change of 1% of them stamped after the
 * watermark of the first pull.
 */
import { startResoSimulator, type RunningResoSimulator } from '../src/sim/reso/server.js';

/** What the bench seeds and where its equal-stamp clusters sit. */
export interface ScenarioShape {
  records: number;
  /** The simulator's largest page (it caps a larger $top silently). */
  maxTop: number;
  /** Seed of the simulator's PRNG (record contents and photo counts). */
  seed: number;
}

/** A run of records sharing one ModificationTimestamp, at 0-based positions [start, start + size). */
export interface Cluster {
  start: number;
  size: number;
}

/** A started, seeded simulator and the facts the bench asserts against. */
export interface Scenario {
  shape: ScenarioShape;
  sim: RunningResoSimulator;
  /** ListingKeys in replication order (ModificationTimestamp, ListingKey). */
  keys: string[];
  clusters: Cluster[];
  /** The last seeded stamp (what a full pull's watermark must be). */
  lastStampMs: number;
}

const STEP_MS = 60_000;
/** Records stamped equal around every tenth page boundary. */
const SMALL_CLUSTER = 8;

/**
 * Clusters of equal stamps: SMALL_CLUSTER records straddling every tenth page boundary, and one of
 * 2.5 pages straddling two boundaries at the middle (a cursor resuming inside one stamp).
 */
export function clustersOf(shape: Pick<ScenarioShape, 'records' | 'maxTop'>): Cluster[] {
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

/**
 * Starts the simulator (OAuth tokens living `tokenTtlSeconds`) and seeds it. The last record is
 * stamped two days ago, so the nightly changes can be stamped after it and still in the past.
 */
export async function startScenario(shape: ScenarioShape, tokenTtlSeconds: number): Promise<Scenario> {
  const sim = await startResoSimulator({ port: 0, seed: shape.seed, maxTop: shape.maxTop, tokenTtlSeconds });
  const clusters = clustersOf(shape);
  const endMs = Math.floor(Date.now() / STEP_MS) * STEP_MS - 2 * 86_400_000;
  const { keys, lastStampMs } = seedRecords(sim, shape.records, clusters, endMs);
  if (keys.length !== shape.records) throw new Error(`seeded ${keys.length} records, not ${shape.records}`);
  return { shape, sim, keys, clusters, lastStampMs };
}

/** The nightly change: its keys and the stamps they got. */
export interface NightlyChange {
  keys: string[];
  firstStampMs: number;
  lastStampMs: number;
}

/**
 * Modifies `count` records spread over the whole order (ListPrice + 1000), ten per stamp, stamped
 * from one hour after `watermarkMs` on, five minutes apart: a night's changes at an MLS.
 */
export function applyNightlyChanges(scenario: Scenario, watermarkMs: number, count: number): NightlyChange {
  const stride = Math.floor(scenario.keys.length / count);
  const keys = Array.from({ length: count }, (_, index) => scenario.keys[index * stride + ((index * 37) % stride)] as string);
  const firstStampMs = watermarkMs + 3_600_000;
  let stampMs = firstStampMs;
  for (let index = 0; index < keys.length; index += 10) {
    stampMs = firstStampMs + (index / 10) * 300_000;
    scenario.sim.state.records.modify({ keys: keys.slice(index, index + 10), timestamp: iso(stampMs) });
  }
  return { keys, firstStampMs, lastStampMs: stampMs };
}
