/**
 * One socket write per turn of the event loop for a Redis connection's commands, instead of one
 * per command.
 *
 * Why: ioredis writes each command to its socket as it is sent, one system call each. A job
 * sends several commands in a turn (BullMQ's fetch and finish, the claim, the ledger, the
 * outcome), and so do the other jobs whose answers the same turn read; profiled, those writes
 * were about a fifth of the CPU of `sync --work`'s main thread (more against a slow service, whose
 * answers come one at a time), and every write also wakes Redis. Corked for the rest of the turn,
 * the socket sends them all with one writev.
 *
 * Why not ioredis's enableAutoPipelining, which also batches: it reorders. It holds the commands
 * it batches back while a batch is in flight, and sends the commands it never batches (MULTI,
 * INFO, CLIENT, SCRIPT) at once, so a MULTI could reach Redis before a command sent ahead of it;
 * Bull's users saw "Job is not in the active list" and jobs without their data with it
 * (OptimalBits/bull#2276, taskforcesh/bullmq#457). Corking keeps every command in the order it was
 * written, on the same socket, and holds none past the turn it was sent in.
 */
import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from '../store/redis-client.js';

type Write = (this: unknown, ...args: unknown[]) => boolean;

/** Streams already corked per turn (a reconnect brings a new one). */
const coalesced = new WeakSet<object>();

/** Corks `stream` at its first write of a turn and uncorks it at the end of the turn (setImmediate). */
function corkPerTurn(stream: Redis['stream']): void {
  if (coalesced.has(stream)) return;
  coalesced.add(stream);
  let corked = false;
  const uncork = (): void => {
    corked = false;
    stream.uncork();
  };
  // Why Reflect: the socket's own write, wrapped for this socket only (not its prototype).
  const write = Reflect.get(stream, 'write') as Write;
  Reflect.set(stream, 'write', function coalescingWrite(this: unknown, ...args: unknown[]): boolean {
    if (!corked) {
      corked = true;
      stream.cork();
      // Why setImmediate, not process.nextTick: the turn's other answers (Redis replies, the
      // service's responses read in the same poll) add their commands to the same write.
      setImmediate(uncork);
    }
    return write.apply(this, args);
  });
}

/** Coalesces the writes of `redis` (each node's, for a cluster), from its next connect on. */
export function coalesceWrites(redis: RedisClient): void {
  if (isCluster(redis)) {
    redis.on('+node', (node: Redis) => coalesceWrites(node));
    return;
  }
  redis.on('connect', () => corkPerTurn(redis.stream));
}
