/**
 * bench:sync's cluster figure (issue 30): `processes` × `listing-sync worker` on a Redis Cluster
 * of three masters of the bench's own, sharing --global-concurrency G (the request permit pool),
 * measured like the single-Redis pool (sync-processes.ts). Target: writes/s ≥ 0.8 of G ÷ latency.
 *
 * Beside it, in the same run and right before it, its baseline: ONE `worker --concurrency G` on
 * the single Redis (no cluster, no permit pool), the same creates. Why: on a 2-core machine shared
 * with the simulator, the Redis servers and the enqueuing `sync`, what G ÷ latency a machine
 * allows moves by a fifth from one quarter hour to the next (0.54–0.76 measured the same day), so
 * the cluster figure alone cannot tell what splitting G over processes costs from what the
 * machine allows at all; the baseline beside it, minutes apart, shows the second.
 */
import { createServer } from 'node:net';
import { freePort } from '../src/cli/wiring/local-redis.js';
import { startBenchCluster } from './redis-cluster.js';
import { runProcesses, type ProcessesResult } from './sync-processes.js';

export interface ClusterSettings {
  /** The single Redis of the baseline (one process alone). */
  redisUrl: string;
  /** Removes what the baseline left under its prefix on `redisUrl`. */
  clean(prefix: string): Promise<unknown>;
  processes: number;
  global: number;
  creates: number;
  latencyMs: number;
  /** The masters' ports; empty: free ones (with their bus port, + 10000, free too). */
  ports: readonly number[];
  newPrefix(what: string): string;
}

async function portFree(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Three free ports whose cluster bus ports are free too. */
async function freeClusterPorts(): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < 3) {
    const port = await freePort();
    if (port <= 55_000 && !ports.includes(port) && (await portFree(port + 10_000))) ports.push(port);
  }
  return ports;
}

export interface ClusterFigure {
  /** `processes` workers on the cluster sharing G. */
  cluster: ProcessesResult;
  /** The baseline: one worker at --concurrency G on the single Redis, measured just before. */
  alone: ProcessesResult;
}

export async function runClusterFigure(settings: ClusterSettings): Promise<ClusterFigure> {
  const alone = await runProcesses({
    redisUrl: settings.redisUrl,
    processes: 1,
    global: settings.global,
    creates: settings.creates,
    latencyMs: settings.latencyMs,
    newPrefix: settings.newPrefix,
    clean: settings.clean,
    mode: 'split',
  });
  const cluster = await startBenchCluster(settings.ports.length > 0 ? settings.ports : await freeClusterPorts());
  try {
    const onCluster = await runProcesses({
      // Where nothing listens: a process that used it instead of the cluster would fail.
      redisUrl: 'redis://127.0.0.1:1',
      clusterNodes: cluster.nodes,
      processes: settings.processes,
      global: settings.global,
      creates: settings.creates,
      latencyMs: settings.latencyMs,
      newPrefix: settings.newPrefix,
      // Nothing to clean key by key: the whole cluster goes.
      clean: () => Promise.resolve(),
      mode: 'pool',
    });
    return { cluster: onCluster, alone };
  } finally {
    await cluster.close();
  }
}
