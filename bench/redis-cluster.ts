/**
 * bench:sync's Redis Cluster: three redis-server processes with --cluster-enabled yes on free
 * loopback ports (each port + 10000, its cluster bus, free too), no persistence, joined with
 * `redis-cli --cluster create`; stopped and their directory removed by `close`. Masters only: the
 * bench measures pace, not failover (test/helpers/redis-cluster.ts starts clusters with replicas).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, redisAnswers } from '../src/cli/wiring/local-redis.js';
import { waitUntil } from './kit.js';

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function clusterOk(port: number): Promise<boolean> {
  const node = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  node.on('error', () => undefined);
  try {
    await node.connect();
    return String(await node.call('CLUSTER', 'INFO')).includes('cluster_state:ok');
  } catch {
    return false;
  } finally {
    node.disconnect();
  }
}

/** Starts the cluster and waits until every node says cluster_state:ok; `nodes` is the value of REDIS_CLUSTER_NODES. */
export async function startBenchCluster(): Promise<{ nodes: string; close(): Promise<void> }> {
  const ports: number[] = [];
  while (ports.length < 3) {
    const port = await freePort();
    if (port <= 55_000 && !ports.includes(port) && (await portFree(port + 10_000))) ports.push(port);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const args = (port: number): string[] =>
    `--port ${port} --bind 127.0.0.1 --dir ${dir} --cluster-enabled yes --cluster-config-file nodes-${port}.conf --appendonly no`.split(
      ' ',
    );
  const children = ports.map((port) => spawn('redis-server', [...args(port), '--save', ''], { stdio: 'ignore' }));
  const close = async (): Promise<void> => {
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports)
      await waitUntil(() => redisAnswers(`redis://127.0.0.1:${port}`, 200), `cluster node on port ${port} did not answer`, 5000, 50);
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await waitUntil(
      async () => (await Promise.all(ports.map(clusterOk))).every(Boolean),
      'the cluster did not reach cluster_state:ok',
      10_000,
      50,
    );
    return { nodes: nodes.join(','), close };
  } catch (thrown) {
    await close();
    throw thrown;
  }
}
