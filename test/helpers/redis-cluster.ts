/**
 * A real Redis Cluster of a test's own: N masters (and optionally replicas of each) from
 * `redis-server --cluster-enabled yes` on free loopback ports, joined with `redis-cli --cluster
 * create`. The test gets the `REDIS_CLUSTER_NODES` value to hand to the CLI, can SIGKILL one node
 * (a master's failure, which its replica takes over), and stops it (directories removed) when done. Needs `redis-server` and `redis-cli` on PATH (hasRedisClusterTools).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { freePort, redisAnswers } from '../../src/cli/wiring/local-redis.js';

export interface RedisClusterProcess {
  /** `127.0.0.1:p1,127.0.0.1:p2,…`: the value of REDIS_CLUSTER_NODES. */
  readonly nodes: string;
  readonly ports: readonly number[];
  /** A client of the cluster for the test's own checks (the caller disconnects it). */
  client(): Cluster;
  /** SIGKILLs the node on `port` (no shutdown, no save): a master's failure when it is one. */
  kill(port: number): Promise<void>;
  /** Stops every node and removes their directories. */
  close(): Promise<void>;
}

export function hasRedisClusterTools(): boolean {
  const ok = (bin: string): boolean => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0;
  return ok('redis-server') && ok('redis-cli');
}

/** A port whose cluster bus port (port + 10000) is free too. */
async function clusterPort(taken: ReadonlySet<number>): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 55_000 || taken.has(port)) continue;
    if (await portFree(port + 10_000)) return port;
  }
}

async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return await new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Runs `use` on a one-off connection to the node on `port`, no retries, always disconnected. */
async function onNode<T>(port: number, password: string | undefined, use: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...(password === undefined ? {} : { password }),
  });
  node.on('error', () => undefined);
  try {
    await node.connect();
    return await use(node);
  } finally {
    node.disconnect();
  }
}

async function clusterReady(ports: readonly number[], password: string | undefined): Promise<boolean> {
  for (const port of ports) {
    const ready = await onNode(port, password, async (node) => {
      const info = String(await node.call('CLUSTER', 'INFO'));
      if (!info.includes('cluster_state:ok')) return false;
      // A replica that has not synced yet would not take over its master's slots.
      const replication = await node.info('replication');
      return !(replication.includes('role:slave') && !replication.includes('master_link_status:up'));
    }).catch(() => false);
    if (!ready) return false;
  }
  return true;
}

/** A node's replication figures from INFO replication. */
interface Replication {
  role: string;
  masterPort: number | undefined;
  /** master_repl_offset on a master, slave_repl_offset on a replica. */
  offset: number;
}

async function replicationOf(port: number, password: string | undefined): Promise<Replication> {
  const info = await onNode(port, password, (node) => node.info('replication'));
  const field = (name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const role = field('role') ?? '';
  const masterPort = field('master_port');
  const offset = role === 'slave' ? field('slave_repl_offset') : field('master_repl_offset');
  return { role, masterPort: masterPort === undefined ? undefined : Number(masterPort), offset: Number(offset ?? -1) };
}

/**
 * Writes a key to every master and waits until each replica holds its master's whole stream.
 *
 * Why: Redis 7.0 says a replica's link is up (and the cluster ok) right after its first sync, but
 * streams the master's writes to it only some seconds later (seen: up to ~4 s, in 8 of 10 fresh
 * clusters at least one replica still at offset 0 after 300 ms). A master killed in that window
 * hands its slots to a replica that holds nothing, which is Redis losing its data, not the
 * failover a test means to show (the flake behind 'Missing key for job' in the failover tests).
 */
async function replicasStreaming(ports: readonly number[], password: string | undefined): Promise<void> {
  const client = clusterClient(ports, password);
  try {
    // 64 keys cover the three masters' slot ranges with certainty beyond any test's needs.
    const keys = Array.from({ length: 64 }, (_, i) => `replication-probe-${i}`);
    await Promise.all(keys.map((key) => client.set(key, '1')));
    await Promise.all(keys.map((key) => client.del(key)));
  } finally {
    client.disconnect();
  }
  const end = Date.now() + 30_000;
  for (;;) {
    const nodes = await Promise.all(ports.map(async (port) => ({ port, ...(await replicationOf(port, password)) })));
    const lagging = nodes.filter((node) => {
      if (node.role !== 'slave') return false;
      const master = nodes.find((other) => other.port === node.masterPort);
      return master === undefined || node.offset < master.offset || master.offset <= 0;
    });
    if (lagging.length === 0) return;
    if (Date.now() > end)
      throw new Error(`replicas on ports ${lagging.map((node) => node.port).join(', ')} never caught up with their masters`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function clusterClient(ports: readonly number[], password: string | undefined): Cluster {
  return new Cluster(
    ports.map((port) => ({ host: '127.0.0.1', port })),
    password === undefined ? {} : { redisOptions: { password } },
  );
}

export interface RedisClusterOptions {
  /** Masters (default 3). */
  masters?: number;
  /** Replicas of each master (default 0); with one, a killed master's replica takes its slots over. */
  replicas?: number;
  /** `requirepass` of every node. */
  password?: string;
  /** `cluster-node-timeout` (default 2000 ms): how long a master may be silent before its replica is promoted. */
  nodeTimeoutMs?: number;
}

/** Starts a cluster and waits until every node says cluster_state:ok. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterProcess> {
  const { masters = 3, replicas = 0, password, nodeTimeoutMs = 2_000 } = options;
  const auth = password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
  const dir = mkdtempSync(join(tmpdir(), 'ls-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i += 1) ports.push(await clusterPort(new Set(ports)));
  const children = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        String(nodeTimeoutMs),
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        // Why: a replica's first sync otherwise waits 5 s for more replicas to join it.
        '--repl-diskless-sync-delay',
        '0',
        ...auth,
      ],
      { stdio: 'ignore' },
    ),
  );
  const kill = async (child: ChildProcess | undefined): Promise<void> => {
    if (child === undefined) return;
    const gone = exited(child);
    child.kill('SIGKILL');
    await gone;
  };
  const close = async (): Promise<void> => {
    await Promise.all(children.map(kill));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      let up = false;
      for (let i = 0; i < 100 && !up; i += 1) {
        up = await redisAnswers(`redis://${password === undefined ? '' : `:${encodeURIComponent(password)}@`}127.0.0.1:${port}`, 200);
        if (!up) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!up) throw new Error(`cluster node on port ${port} did not answer`);
    }
    const create = spawnSync(
      'redis-cli',
      [
        ...(password === undefined ? [] : ['-a', password, '--no-auth-warning']),
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { encoding: 'utf8' },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    let ready = false;
    for (let i = 0; i < 200 && !ready; i += 1) {
      ready = await clusterReady(ports, password);
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!ready) throw new Error('the cluster did not reach cluster_state:ok');
    if (replicas > 0) await replicasStreaming(ports, password);
  } catch (thrown) {
    await close();
    throw thrown;
  }
  const nodes = ports.map((port) => `127.0.0.1:${port}`).join(',');
  return {
    nodes,
    ports,
    client: () => clusterClient(ports, password),
    kill: (port) => kill(children[ports.indexOf(port)]),
    close,
  };
}
