/**
 * bench:sync's cluster figure (issue 30): `processes` × `listing-sync worker` on a Redis Cluster
 * of three masters of the bench's own, sharing --global-concurrency G (the request permit pool),
 * measured like the single-Redis pool (sync-processes.ts). Target: writes/s ≥ 0.8 of G ÷ latency.
 */
import { createServer } from 'node:net';
import { freePort } from '../src/cli/wiring/local-redis.js';
import { startBenchCluster } from './redis-cluster.js';
import { runProcesses, type ProcessesResult } from './sync-processes.js';

export interface ClusterSettings {
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

export async function runClusterFigure(settings: ClusterSettings): Promise<ProcessesResult> {
  const cluster = await startBenchCluster(settings.ports.length > 0 ? settings.ports : await freeClusterPorts());
  try {
    return await runProcesses({
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
  } finally {
    await cluster.close();
  }
}
