// bench:sync's scaling: N × `worker` against a fresh simulator, `sync` only enqueueing. 'pool': each --concurrency G under
// --global-concurrency G, enqueued past the pool's grace; 'split', the baseline: each G ÷ N, no pool. The cluster figure runs
// 'pool' on a 3-master Cluster beside ONE `worker --concurrency G` on the single Redis. Why that baseline: on a shared 2-core
// machine what G ÷ latency allows moves by a fifth within an hour.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, redisAnswers } from '../src/cli/wiring/local-redis.js';
import { DEFAULT_PERMIT_TTL_MS } from '../src/queue/worker.js';
import { cliEnv, runCli, spawnCli, type Spawned } from './cli-child.js';
import { cleanPrefix, newPrefix, sleep, waitUntil } from './kit.js';
import { WIRE_CHATBOT, prepareWireScenario, removeWireScenario, startWireSim } from './sync-wire.js';

export type ProcessesMode = 'pool' | 'split';

export interface ProcessesSettings {
  redisUrl: string;
  /** `host:port,…` of a Redis Cluster that every process uses instead of `redisUrl`. */
  clusterNodes?: string;
  processes: number;
  global: number;
  creates: number;
  latencyMs: number;
  mode: ProcessesMode;
}

export interface ProcessesResult {
  mode: ProcessesMode;
  processes: number;
  global: number;
  writesPerSecond: number;
  /** G ÷ latency. */
  ideal: number;
  maxInFlight: number;
  listings: number;
  duplicateCreates: number;
}

export async function runProcesses(settings: ProcessesSettings): Promise<ProcessesResult> {
  const { processes, global, creates, latencyMs, mode } = settings;
  const scenario = await prepareWireScenario(creates, global, latencyMs, { bodies: false });
  const sim = await startWireSim(latencyMs, [WIRE_CHATBOT]);
  const prefix = newPrefix('procs');
  const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  const env = {
    ...cliEnv(sim.info, settings.redisUrl, prefix, 'info'),
    ...(settings.clusterNodes === undefined ? {} : { REDIS_CLUSTER_NODES: settings.clusterNodes }),
  };
  const workers: Spawned[] = [];
  try {
    const limits =
      mode === 'pool'
        ? ['--concurrency', String(global), '--global-concurrency', String(global)]
        : ['--concurrency', String(global / processes)];
    for (let i = 0; i < processes; i += 1) workers.push(spawnCli(['worker', ...limits], env));
    await Promise.all(workers.map((worker) => worker.started()));
    await sleep(DEFAULT_PERMIT_TTL_MS / 2);
    const enqueue = await runCli(['sync', '--chatbot', WIRE_CHATBOT, '--feed', scenario.feedPath, '--json'], { ...env, LOG_LEVEL: 'warn' });
    if (enqueue.code !== 0) throw new Error(`sync exited ${enqueue.code}:\n${enqueue.stderr}`);
    await waitUntil(async () => (await sim.listings()) >= creates, `not all ${creates} created in 10 minutes`);
    const { phase, maxInFlight, listings, duplicateCreates } = await sim.report();
    const counts = { maxInFlight, listings, duplicateCreates };
    return { mode, processes, global, writesPerSecond: phase.perSecond, ideal: global / (latencyMs / 1000), ...counts };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await sim.close();
    await removeWireScenario(scenario);
    // A cluster is removed whole; the single Redis key by key.
    if (settings.clusterNodes === undefined) await cleanPrefix(redis, prefix).finally(() => redis.disconnect());
  }
}

export interface ClusterFigure {
  /** `processes` workers on the cluster sharing G, and the baseline: one worker at --concurrency G on the single Redis. */
  cluster: ProcessesResult;
  alone: ProcessesResult;
}

export async function runClusterFigure(settings: Omit<ProcessesSettings, 'mode' | 'clusterNodes'>): Promise<ClusterFigure> {
  const alone = await runProcesses({ ...settings, processes: 1, mode: 'split' });
  const cluster = await startBenchCluster();
  try {
    // Where nothing listens: a process that used it instead of the cluster would fail.
    const onCluster = await runProcesses({ ...settings, redisUrl: 'redis://127.0.0.1:1', clusterNodes: cluster.nodes, mode: 'pool' });
    return { cluster: onCluster, alone };
  } finally {
    await cluster.close();
  }
}

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

const clusterOk = (port: number): boolean =>
  spawnSync('redis-cli', ['-p', String(port), 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok');

/** Starts the cluster (each port + 10000, its bus, free too) until every node says cluster_state:ok; `nodes`: REDIS_CLUSTER_NODES. */
async function startBenchCluster(): Promise<{ nodes: string; close(): Promise<void> }> {
  const ports: number[] = [];
  while (ports.length < 3) {
    const port = await freePort();
    if (port <= 55_000 && !ports.includes(port) && (await portFree(port + 10_000))) ports.push(port);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const flags = '--bind 127.0.0.1 --cluster-enabled yes --appendonly no'.split(' ');
  const args = (port: number): string[] => [...flags, '--port', String(port), '--dir', dir, '--cluster-config-file', `nodes-${port}.conf`];
  const children = ports.map((port) => spawn('redis-server', [...args(port), '--save', ''], { stdio: 'ignore' }));
  const close = async (): Promise<void> => {
    const live = children.filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of live) child.kill('SIGKILL');
    await Promise.all(live.map((child) => once(child, 'exit')));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports)
      await waitUntil(() => redisAnswers(`redis://127.0.0.1:${port}`, 200), `cluster node on port ${port} did not answer`, 5000, 50);
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const createArgs = ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'];
    const create = spawnSync('redis-cli', createArgs, { encoding: 'utf8' });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await waitUntil(() => ports.every(clusterOk), 'the cluster did not reach cluster_state:ok', 10_000, 50);
    return { nodes: nodes.join(','), close };
  } catch (thrown) {
    await close();
    throw thrown;
  }
}
