/**
 * bench:sync's scaling figures: `processes` × `listing-sync worker` against a fresh simulator; the
 * CLI `sync` only enqueues. Timed by the simulator from the first create answered to the last.
 * Two ways to hold G requests in flight at most:
 * - 'pool': each --concurrency G, all under --global-concurrency G (the request permit pool). The
 *   enqueue waits until the pool is past its grace (TTL/2 after the first worker registered), as
 *   it is for workers that run as daemons (the split mode waits as long, to start alike);
 * - 'split': G split by hand, each --concurrency G ÷ N and no --global-concurrency (no pool): the
 *   baseline of what N processes reach on this machine without sharing anything.
 * The simulator runs in a process of its own (wire-sim.ts). With `clusterNodes` every process
 * uses that Redis Cluster (REDIS_CLUSTER_NODES) instead of the Redis at `redisUrl`.
 */
import { runCli, spawnCli, type Spawned } from './cli-child.js';
import { cliEnv, prepareWireScenario, removeWireScenario, WIRE_CHATBOT, wireSimulator } from './sync-wire.js';
import { DEFAULT_PERMIT_TTL_MS } from '../src/queue/worker.js';

export type ProcessesMode = 'pool' | 'split';

export interface ProcessesSettings {
  redisUrl: string;
  /** `host:port,…` of a Redis Cluster that every process uses instead of `redisUrl`. */
  clusterNodes?: string;
  processes: number;
  global: number;
  creates: number;
  latencyMs: number;
  newPrefix(what: string): string;
  /** Removes what the measurement left under `prefix`. */
  clean(prefix: string): Promise<unknown>;
  mode: ProcessesMode;
}

export interface ProcessesResult {
  mode: ProcessesMode;
  /** On a Redis Cluster (REDIS_CLUSTER_NODES), not a single Redis. */
  cluster: boolean;
  processes: number;
  global: number;
  writesPerSecond: number;
  /** Ideal: G ÷ latency. */
  ideal: number;
  maxInFlight: number;
  listings: number;
  duplicateCreates: number;
}

async function started(worker: Spawned, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!worker.output().includes('workers started')) {
    if (worker.child.exitCode !== null) throw new Error(`worker exited ${worker.child.exitCode}:\n${worker.output()}`);
    if (Date.now() > end) throw new Error(`worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runProcesses(settings: ProcessesSettings): Promise<ProcessesResult> {
  const { processes, global, creates, latencyMs, mode } = settings;
  const scenario = await prepareWireScenario(creates, global, latencyMs, { bodies: false });
  const sim = await wireSimulator(latencyMs);
  const prefix = settings.newPrefix('procs');
  const cluster = settings.clusterNodes === undefined ? {} : { REDIS_CLUSTER_NODES: settings.clusterNodes };
  const env = { ...cliEnv(sim.info, settings.redisUrl, prefix), ...cluster, LOG_LEVEL: 'info' };
  const workers: Spawned[] = [];
  try {
    const limits =
      mode === 'pool'
        ? ['--concurrency', String(global), '--global-concurrency', String(global)]
        : ['--concurrency', String(global / processes)];
    for (let i = 0; i < processes; i += 1) workers.push(spawnCli(['worker', ...limits], env));
    await Promise.all(workers.map((worker) => started(worker)));
    // Both modes wait alike (the pool for its grace), so that they start from the same state.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_PERMIT_TTL_MS / 2));
    const enqueue = await runCli(['sync', '--chatbot', WIRE_CHATBOT, '--feed', scenario.feedPath, '--json'], { ...env, LOG_LEVEL: 'warn' });
    if (enqueue.code !== 0) throw new Error(`sync exited ${enqueue.code}:\n${enqueue.stderr}`);
    const end = Date.now() + 600_000;
    for (let listings = 0; listings < creates; listings = await sim.listings()) {
      if (Date.now() > end) throw new Error(`only ${listings} of ${creates} created in 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { phase, maxInFlight, listings, duplicateCreates } = await sim.report();
    return {
      mode,
      cluster: settings.clusterNodes !== undefined,
      processes,
      global,
      writesPerSecond: phase.perSecond,
      ideal: global / (latencyMs / 1000),
      maxInFlight,
      listings,
      duplicateCreates,
    };
  } finally {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(
      workers.map((worker) =>
        worker.child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => worker.child.once('exit', resolve)),
      ),
    );
    await sim.close();
    await removeWireScenario(scenario);
    await settings.clean(prefix);
  }
}
