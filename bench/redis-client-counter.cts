/**
 * Client-side Redis counts (see sync-redis-stats.ts): CommonJS, so that the bench's `--require`
 * preload (redis-count-preload.cts) can install it in every thread of a CLI process, the enqueue
 * thread included (Node 20 runs `--require` preloads in worker threads, `--import` ones not).
 */
import { Redis } from 'ioredis';

export interface ClientCounts {
  commands: number;
  roundTrips: number;
}

interface CountingTarget {
  sendCommand(this: Redis, command: unknown, stream?: unknown): unknown;
}

const counts: ClientCounts = { commands: 0, roundTrips: 0 };
let installed = false;

/**
 * Counts every command any ioredis client of this process sends, from now on (BullMQ's own
 * duplicated connections included: the count sits on the prototype). ioredis queues a
 * pipeline's commands through sendCommand with the pipeline's buffer as `stream`: each new
 * buffer is one round trip.
 */
export function installClientCounter(): void {
  if (installed) return;
  installed = true;
  const proto = Redis.prototype as unknown as CountingTarget;
  // Why Reflect.get: the method is taken off the prototype on purpose, to be called with each client as `this`.
  const original: CountingTarget['sendCommand'] = Reflect.get(proto, 'sendCommand');
  const pipelines = new WeakSet<object>();
  proto.sendCommand = function countingSendCommand(this: Redis, command: unknown, stream?: unknown): unknown {
    counts.commands += 1;
    if (typeof stream !== 'object' || stream === null) counts.roundTrips += 1;
    else if (!pipelines.has(stream)) {
      pipelines.add(stream);
      counts.roundTrips += 1;
    }
    return original.call(this, command, stream);
  };
}

/** The client-side counts so far (a copy). */
export function clientCounts(): ClientCounts {
  return { ...counts };
}

export function clientDelta(before: ClientCounts, after: ClientCounts): ClientCounts {
  return { commands: after.commands - before.commands, roundTrips: after.roundTrips - before.roundTrips };
}
