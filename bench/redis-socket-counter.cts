/**
 * Redis commands and round trips a process sends, counted on its sockets (see
 * redis-count-preload.cts). Why on the sockets and not on ioredis's prototype (as
 * redis-client-counter.cts does for the in-process benches): the shipped CLI is a bundle with its
 * own copy of ioredis inside, which no preload can reach. ioredis writes each command, and each
 * pipeline as a whole, with one `write` to its socket: one write is one round trip, and the RESP
 * arrays in it are its commands. A corked socket (src/queue/coalesced-writes.ts corks a
 * connection for the rest of an event-loop turn) sends every write until its uncork at once: one
 * round trip for the whole batch.
 */
import { Socket } from 'node:net';
import type { ClientCounts } from './redis-client-counter.cjs';

const counts: ClientCounts = { commands: 0, roundTrips: 0 };

const CR = 0x0d;
const STAR = 0x2a;

/** The number after a RESP type byte at `at` (e.g. `*3\r\n`), and where its line ends. */
function header(bytes: Buffer, at: number): { value: number; next: number } {
  const end = bytes.indexOf(CR, at);
  return { value: Number(bytes.toString('latin1', at + 1, end)), next: end + 2 };
}

/** Commands in one write: RESP arrays of bulk strings; anything else (an inline command) counts once. */
export function respCommands(chunk: string | Uint8Array): number {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let at = 0;
  let commands = 0;
  while (at < bytes.length) {
    if (bytes[at] !== STAR) return commands + 1;
    const array = header(bytes, at);
    at = array.next;
    for (let i = 0; i < array.value; i += 1) {
      const bulk = header(bytes, at);
      at = bulk.next + bulk.value + 2;
    }
    commands += 1;
  }
  return commands;
}

/** Sockets whose current corked batch is already counted as a round trip. */
const countedBatch = new WeakSet<Socket>();

/** Counts, from now on, every write of this thread's sockets to `redisPort`. */
export function installSocketCounter(redisPort: number): void {
  // Why Reflect.get: the methods are taken off the prototype on purpose, to be called with each socket as `this`.
  const original = Reflect.get(Socket.prototype, 'write') as (this: Socket, ...args: unknown[]) => boolean;
  const originalUncork: (this: Socket) => void = Reflect.get(Socket.prototype, 'uncork');
  Reflect.set(Socket.prototype, 'write', function countingWrite(this: Socket, chunk: unknown, ...rest: unknown[]): boolean {
    if (this.remotePort === redisPort && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
      if (this.writableCorked === 0) counts.roundTrips += 1;
      else if (!countedBatch.has(this)) {
        countedBatch.add(this);
        counts.roundTrips += 1;
      }
      counts.commands += respCommands(chunk);
    }
    return original.call(this, chunk, ...rest);
  });
  Reflect.set(Socket.prototype, 'uncork', function countingUncork(this: Socket): void {
    countedBatch.delete(this);
    originalUncork.call(this);
  });
}

/** The counts so far (a copy). */
export function socketCounts(): ClientCounts {
  return { ...counts };
}
