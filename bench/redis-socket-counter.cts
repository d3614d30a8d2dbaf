/**
 * Redis commands and round trips a process sends, counted on its sockets. Why not on ioredis's prototype: the CLI is
 * a bundle with its own ioredis, which no preload reaches. One `write` (a command or a pipeline) is one round trip,
 * its RESP arrays its commands; a corked socket's writes until its uncork are one round trip together.
 */
import { Socket } from 'node:net';

export interface ClientCounts {
  commands: number;
  roundTrips: number;
}

const counts: ClientCounts = { commands: 0, roundTrips: 0 };

const CR = 0x0d;
const STAR = 0x2a;
const ZERO = 0x30;

/**
 * Commands in one write (RESP arrays; an inline command counts once). Why read in place by character codes: this runs
 * on every write of the CLI being measured, and copying each (23 MB in a 6,000-listing sync) cost it 0.1 s of CPU.
 * A non-ASCII string is copied to bytes first, as it would be on the wire.
 */
export function respCommands(chunk: string | Uint8Array): number {
  if (typeof chunk !== 'string') return commandsIn(chunk.length, (i) => chunk[i] as number);
  if (Buffer.byteLength(chunk) !== chunk.length) return respCommands(Buffer.from(chunk));
  return commandsIn(chunk.length, (i) => chunk.charCodeAt(i));
}

/** The RESP arrays in `length` bytes read through `byteAt`. */
function commandsIn(length: number, byteAt: (i: number) => number): number {
  let at = 0;
  /** The number after the type byte at `at` (`*3`, `$12`); leaves `at` past its CRLF. */
  const header = (): number => {
    let value = 0;
    for (at += 1; at < length && byteAt(at) !== CR; at += 1) value = value * 10 + byteAt(at) - ZERO;
    at += 2;
    return value;
  };
  let commands = 0;
  while (at < length) {
    if (byteAt(at) !== STAR) return commands + 1;
    const bulks = header();
    for (let i = 0; i < bulks && at < length; i += 1) {
      // Not `at += header() + 2`: that would add to `at` as it was before header() moved it.
      const size = header();
      at += size + 2;
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

export function socketCounts(): ClientCounts {
  return { ...counts };
}
