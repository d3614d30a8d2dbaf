/**
 * Redis traffic of the benchmark, counted two ways:
 * - server side, INFO commandstats before/after: every command Redis executed, INCLUDING the
 *   commands that Lua scripts (BullMQ's and ours) run inside EVALSHA (Redis 7 counts those in
 *   commandstats too). Server-wide: other clients of the same Redis would add to it, so the
 *   number of other connected clients is reported with it.
 * - client side, by counting in ioredis: the commands this process sent (an EVALSHA counts once)
 *   and the round trips (a pipeline counts once).
 */
import type { Redis } from 'ioredis';

export interface ServerCounts {
  /** Calls per command name (e.g. 'evalsha', 'hget', 'bzpopmin'). */
  byCommand: Map<string, number>;
  total: number;
}

/** Parses INFO commandstats into calls per command. */
export async function serverCommandCounts(redis: Redis): Promise<ServerCounts> {
  const text = await redis.info('commandstats');
  const byCommand = new Map<string, number>();
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match === null) continue;
    const calls = Number(match[2]);
    byCommand.set(match[1] as string, calls);
    total += calls;
  }
  return { byCommand, total };
}

/** `after − before`, per command, dropping zeros. */
export function countsDelta(before: ServerCounts, after: ServerCounts): ServerCounts {
  const byCommand = new Map<string, number>();
  for (const [name, calls] of after.byCommand) {
    const delta = calls - (before.byCommand.get(name) ?? 0);
    if (delta !== 0) byCommand.set(name, delta);
  }
  return { byCommand, total: after.total - before.total };
}

/** Clients connected to the server right now (this process's included). */
export async function connectedClients(redis: Redis): Promise<number> {
  const text = (await redis.call('CLIENT', 'LIST')) as string;
  return text.split('\n').filter((line) => line.trim() !== '').length;
}

export { clientCounts, clientDelta, installClientCounter, type ClientCounts } from './redis-client-counter.cjs';

/** Deletes every key under `prefix` (SCAN, never KEYS); returns how many. */
export async function cleanPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let removed = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) removed += await redis.unlink(...keys);
  } while (cursor !== '0');
  return removed;
}
