/**
 * Which masters of a Redis Cluster client stopped answering, until the cluster serves their slots
 * again (their replica promoted, or the master itself back).
 *
 * Why a watch of its own: a cluster client stays 'ready' while one master is dead. ioredis sends
 * the dead master's commands again every 250 ms (connection.ts RIDE_OUT_FAILOVER) and says
 * nothing but 'node error' events, so a process that only follows the client's own status saw
 * no outage at all: `sync --work` sat silent through the failover, and a stop asked meanwhile
 * waited for jobs whose commands waited for the replica (the forced exit after 30 s).
 */
import type { Cluster } from 'ioredis';

export interface LostMastersEvents {
  /** A master stopped answering (`node` is its host:port); called for every failed attempt. */
  lost(err: unknown, node: string): void;
  /** No master is lost any more: every one the cluster names answers, or was replaced. */
  found(): void;
}

function keyOf(node: { options: { host?: string; port?: number } }): string {
  return `${node.options.host ?? '127.0.0.1'}:${String(node.options.port ?? 6379)}`;
}

/**
 * How often the slot map is read again while a master is lost. Why at all: ioredis reads it only
 * when a command meets the lost slots (no periodic refresh by default), so a client that sends
 * none there any more never learnt that the replica took over: the dashboard, whose pages are
 * held back while its watch says a master is lost, answered 503 long after the failover ended.
 */
export const LOST_MASTER_LOOK_MS = 1000;

/** Follows `cluster`'s masters; returns how many are lost now. `failed` tells a connection failure from a command's. */
export function followLostMasters(cluster: Cluster, failed: (err: unknown) => boolean, events: LostMastersEvents): () => number {
  const lost = new Set<string>();
  let looking: NodeJS.Timeout | undefined;
  const stopLooking = (): void => {
    clearInterval(looking);
    looking = undefined;
  };
  const masters = (): Map<string, { status: string }> => new Map(cluster.nodes('master').map((node) => [keyOf(node), node]));
  cluster.on('node error', (err: unknown, node: string) => {
    if (cluster.status === 'end' || cluster.status === 'disconnecting' || !failed(err)) return;
    // Why masters only: a dead replica serves no command (reads go to masters); its failure is no pause.
    if (!lost.has(node) && !masters().has(node)) return;
    lost.add(node);
    events.lost(err, node);
    looking ??= setInterval(() => {
      if (cluster.status === 'ready') cluster.refreshSlotsCache();
    }, LOST_MASTER_LOOK_MS);
    looking.unref();
  });
  // Why on 'refresh': each retry of a command for the dead master's slots reads the slot map
  // first, and the map that no longer names the dead master (or names it answering) is the end
  // of the failover.
  cluster.on('refresh', () => {
    if (lost.size === 0) return;
    const now = masters();
    for (const node of lost) {
      const master = now.get(node);
      if (master === undefined || master.status === 'ready') lost.delete(node);
    }
    if (lost.size > 0) return;
    stopLooking();
    events.found();
  });
  cluster.on('end', () => {
    lost.clear();
    stopLooking();
  });
  return () => lost.size;
}
