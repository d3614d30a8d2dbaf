/**
 * The seed nodes a Redis Cluster client (re)connects from follow the cluster as it is.
 *
 * Why: ioredis connects again, and BullMQ's duplicate() connections (a worker's blocking one,
 * opened at start and on every reconnect) connect at all, from the startup nodes only: the
 * REDIS_CLUSTER_NODES list. With a list that names the master that failed (one seed is a common
 * setting), a worker's blocking connection said "None of startup nodes is available" every few
 * seconds of the failover, although the replica had taken over and every other node answered.
 * After each slot map read, the seeds are the configured ones plus every node the map named.
 */
import type { Cluster } from 'ioredis';

interface Seed {
  host: string;
  port: number;
}

/** Keeps `cluster`'s startup nodes `configured` plus the nodes of its last slot map. */
export function keepSeedsCurrent(cluster: Cluster, configured: readonly Seed[]): void {
  cluster.on('refresh', () => {
    const seeds = new Map(configured.map((seed) => [`${seed.host}:${seed.port}`, { host: seed.host, port: seed.port }]));
    for (const node of cluster.nodes('all')) {
      const { host, port } = node.options;
      if (host !== undefined && port !== undefined) seeds.set(`${host}:${port}`, { host, port });
    }
    // Why Reflect: ioredis declares the field private, and offers no setter; duplicate() and connect() read it.
    Reflect.set(cluster, 'startupNodes', [...seeds.values()]);
  });
}
