/**
 * The Redis client every store, queue and command works with: one Redis, or a Redis Cluster
 * (REDIS_CLUSTER_NODES). ioredis's `Redis` and `Cluster` share the command API; what differs is
 * handled here, so the rest of the code never asks which one it holds:
 * - the key layout (keys.ts): on a cluster each chatbot's keys share one hash tag;
 * - walking the keyspace: SCAN runs on every master of a cluster (mastersOf);
 * - commands that describe a server (INFO, CONFIG) are asked of every master.
 */
import { Cluster, type Redis } from 'ioredis';
import type { KeyLayout } from './keys.js';

export type RedisClient = Redis | Cluster;

/** True for a Redis Cluster client. */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** The servers holding data: the client itself, or each master of a cluster. */
export function mastersOf(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/** The key layout a client needs (keys.ts): a cluster's keys are hash-tagged per chatbot. */
export function layoutOf(client: RedisClient): KeyLayout {
  return isCluster(client) ? 'cluster' : 'single';
}
