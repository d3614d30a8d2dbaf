/**
 * bench:sync's Redis Cluster: `masters` redis-server processes with --cluster-enabled yes on the
 * given loopback ports (each port + 10000, its cluster bus, must be free too), no persistence,
 * joined with `redis-cli --cluster create`; stopped and their directory removed by `close`.
 * Masters only: the bench measures pace, not failover (test/helpers/redis-cluster.ts starts
 * clusters with replicas for that).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { redisAnswers } from '../src/cli/wiring/local-redis.js';

export interface BenchCluster {
  /** `127.0.0.1:p1,127.0.0.1:p2,…`: the value of REDIS_CLUSTER_NODES. */
  nodes: string;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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

/** Starts the cluster on `ports` (three or more) and waits until every node says cluster_state:ok. */
export async function startBenchCluster(ports: readonly number[]): Promise<BenchCluster> {
  if (ports.length < 3) throw new Error('a Redis Cluster needs at least three masters');
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const children: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
        ...['--save', '', '--appendonly', 'no'],
      ],
      { stdio: 'ignore' },
    ),
  );
  const close = async (): Promise<void> => {
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      let up = false;
      for (let i = 0; i < 100 && !up; i += 1) {
        up = await redisAnswers(`redis://127.0.0.1:${port}`, 200);
        if (!up) await sleep(50);
      }
      if (!up) throw new Error(`cluster node on port ${port} did not answer (is the port, or port + 10000, taken?)`);
    }
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    for (let i = 0; ; i += 1) {
      if ((await Promise.all(ports.map(clusterOk))).every(Boolean)) break;
      if (i >= 200) throw new Error('the cluster did not reach cluster_state:ok');
      await sleep(50);
    }
    return { nodes: nodes.join(','), close };
  } catch (thrown) {
    await close();
    throw thrown;
  }
}
