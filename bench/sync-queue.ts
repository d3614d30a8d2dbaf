/**
 * The queue side of bench:sync, through the real path: `runSync` with `syncDeps` (feed file →
 * snapshot over HTTP → plan → guard → run record → addBulk), then this process's workers
 * (`startConfiguredWorkers`, --concurrency 16) until `waitForRun` sees the run finished.
 * Workers start only after the enqueue returned, so the timed part is the workers alone: from the
 * first job going active to the run's `finishedAt` (stamped by the last job's finish script).
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createClientFromConfig } from '../src/cli/wiring/api-wiring.js';
import { openQueueContext, startConfiguredWorkers, syncDeps } from '../src/cli/wiring/queue-wiring.js';
import { resolveConfig } from '../src/config/config.js';
import type { EndpointName } from '../src/api/endpoints.js';
import { createLogger } from '../src/runtime/logger.js';
import { waitForRun } from '../src/sync/wait-for-run.js';
import { startSimulator } from '../src/sim/server.js';
import type { RunCounts } from '../src/store/run-types.js';
import { runSync } from '../src/sync/run-sync.js';
import type { SyncRequest } from '../src/sync/sync-request.js';
import {
  clientCounts,
  clientDelta,
  cleanPrefix,
  connectedClients,
  countsDelta,
  serverCommandCounts,
  type ClientCounts,
  type ServerCounts,
} from './sync-redis-stats.js';
import { workProfiler } from './sync-profile.js';
import { sampleInFlight, type InFlightSampler } from './sync-sampler.js';
import { BENCH_CHATBOT, writeFeedFile, type Scenario } from './sync-scenario.js';

export interface QueueRunSettings {
  redisUrl: string;
  latencyMs: number;
  concurrency: number;
  /** Directory for a CPU profile of the work phase (none when absent). */
  profileDir?: string;
}

export interface QueueResult {
  prefix: string;
  jobs: number;
  /** Service write requests made while the workers ran (creates, updates, delete batches, lookups excluded). */
  writeRequests: number;
  syncSeconds: number;
  /** First job active → run finishedAt. */
  workSeconds: number;
  writesPerSecond: number;
  callCounts: Record<EndpointName, number>;
  totalCalls: number;
  maxInFlight: number;
  /** Average requests in flight while the workers ran (sampled every 5 ms). */
  avgInFlight: number;
  counts: RunCounts;
  /** Listings the chatbot holds afterwards, and how many MLS numbers appear more than once. */
  finalListings: number;
  duplicateKeys: number;
  redis: {
    /** INFO commandstats delta over enqueue + work (Lua-inner commands included). */
    server: ServerCounts;
    serverWork: ServerCounts;
    /** Commands and round trips this process sent over enqueue + work, and over work alone. */
    client: ClientCounts;
    clientWork: ClientCounts;
    otherClientsAtStart: number;
  };
  loopDelayMs: { p50: number; p99: number; max: number };
  /** Keys left under the prefix after cleaning (should be 0). */
  keysLeft: number;
}

const LOOP_RESOLUTION_MS = 10;

/** Event-loop lag: Node's histogram records whole timer intervals, so the resolution is taken off. */
function loopDelay(histogram: ReturnType<typeof monitorEventLoopDelay>): QueueResult['loopDelayMs'] {
  const ms = (ns: number): number => Math.max(0, Math.round((ns / 1e6 - LOOP_RESOLUTION_MS) * 10) / 10);
  return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
}

function duplicates(keys: readonly string[]): number {
  const seen = new Set<string>();
  let repeated = 0;
  for (const key of keys) {
    if (seen.has(key)) repeated += 1;
    seen.add(key);
  }
  return repeated;
}

export async function runQueueSync(scenario: Scenario, settings: QueueRunSettings): Promise<QueueResult> {
  const prefix = `bench-sync-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const feedPath = join(tmpdir(), `${prefix}.json`);
  await writeFeedFile(feedPath, scenario.feed);
  const admin = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
  const sim = await startSimulator({
    chatbots: [BENCH_CHATBOT],
    listings: { [BENCH_CHATBOT]: scenario.remote },
    faults: { latencyMs: settings.latencyMs },
  });
  const config = resolveConfig({
    env: {
      API_BASE_URL: sim.baseUrl,
      API_SECRET_KEY: sim.credentials.secretKey,
      API_SESSION_KEY: sim.credentials.sessionKey,
      PROJECT_AUTH_TOKEN: sim.credentials.projectAuthToken,
      REDIS_URL: settings.redisUrl,
      LISTING_SYNC_PREFIX: prefix,
      LISTING_SYNC_CONCURRENCY: String(settings.concurrency),
      LISTING_SYNC_DELETE_BATCH: String(scenario.deleteBatchSize),
    },
  });
  const logger = createLogger({ level: 'warn' });
  const api = createClientFromConfig(config, logger);
  // Minus one: the admin connection itself.
  const otherClientsAtStart = (await connectedClients(admin)) - 1;
  const ctx = await openQueueContext(config, 'producer');
  let workers: Awaited<ReturnType<typeof startConfiguredWorkers>> | undefined;
  let result: QueueResult | undefined;
  let sampler: InFlightSampler | undefined;
  try {
    const serverBefore = await serverCommandCounts(admin);
    const clientBefore = clientCounts();
    const request: SyncRequest = {
      chatbot: BENCH_CHATBOT,
      feed: { source: feedPath, profile: 'native', format: 'json' },
      keyType: 'MLSNumber',
      mode: 'mirror',
      deleteScope: 'all',
      maxDeletes: String(scenario.deleted),
      maxRejectedPercent: 0,
      force: false,
      dryRun: false,
      pageSize: scenario.pageSize,
    };
    const syncStarted = performance.now();
    const outcome = await runSync(syncDeps(api, ctx, config, logger), request);
    const syncSeconds = (performance.now() - syncStarted) / 1000;
    const { plan, guard, runId } = outcome.summary;
    if (!guard.ok) throw new Error(`the guard refused the bench sync: ${guard.reasons.join('; ')}`);
    if (plan.update !== scenario.updates || plan.create !== scenario.creates || plan.delete !== scenario.deleted) {
      throw new Error(
        `plan ${JSON.stringify(plan)} is not the scenario's (${scenario.updates} updates, ${scenario.creates} creates, ${scenario.deleted} deletes)`,
      );
    }
    const callsBeforeWork = sim.state.callCounts();

    const serverMid = await serverCommandCounts(admin);
    const clientMid = clientCounts();
    const histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    const profiler = settings.profileDir === undefined ? undefined : workProfiler(settings.profileDir);
    await profiler?.start();
    workers = await startConfiguredWorkers(config, api, ctx, logger);
    let firstActive: number | undefined;
    workers.writes.once('active', () => {
      firstActive = Date.now();
      sampler = sampleInFlight(() => sim.state.inFlight());
    });
    histogram.enable();
    const counts = await waitForRun(ctx.store, runId, { pollMs: 100 });
    histogram.disable();
    const avgInFlight = sampler?.stop() ?? 0;
    if (profiler) process.stderr.write(`work-phase CPU profile: ${await profiler.stop()}\n`);
    const run = await ctx.store.runs.getRun(runId);
    const clientAfter = clientCounts();
    const serverAfter = await serverCommandCounts(admin);
    if (firstActive === undefined || run?.finishedAt === undefined)
      throw new Error('the run finished without a first active job or a finishedAt');
    const workSeconds = (run.finishedAt - firstActive) / 1000;

    const callCounts = sim.state.callCounts();
    const writeRequests = (['createListing', 'updateListing', 'deleteListings'] as const).reduce(
      (sum, name) => sum + callCounts[name] - callsBeforeWork[name],
      0,
    );
    const listings = sim.state.listings(BENCH_CHATBOT);
    const jobs = counts.totalJobs;
    result = {
      prefix,
      jobs,
      writeRequests,
      syncSeconds,
      workSeconds,
      writesPerSecond: writeRequests / workSeconds,
      callCounts,
      totalCalls: Object.values(callCounts).reduce((a, b) => a + b, 0),
      maxInFlight: sim.state.maxInFlight(),
      avgInFlight,
      counts,
      finalListings: listings.length,
      duplicateKeys: duplicates(listings.map((l) => l.MLSNumber)),
      redis: {
        server: countsDelta(serverBefore, serverAfter),
        serverWork: countsDelta(serverMid, serverAfter),
        client: clientDelta(clientBefore, clientAfter),
        clientWork: clientDelta(clientMid, clientAfter),
        otherClientsAtStart,
      },
      loopDelayMs: loopDelay(histogram),
      keysLeft: -1,
    };
  } finally {
    sampler?.stop();
    await workers?.close();
    await ctx.close();
    await api.close();
    await sim.close();
    await rm(feedPath, { force: true });
    await cleanPrefix(admin, prefix);
    // A second pass finds what the first missed (keys written while it scanned): should be none.
    const left = await cleanPrefix(admin, prefix);
    if (result) result.keysLeft = left;
    await admin.quit();
  }
  return result;
}
