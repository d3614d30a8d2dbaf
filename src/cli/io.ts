/**
 * What a command may touch of the process: passed in so commands never read globals, and tests
 * can run them with plain objects.
 */
import { fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { ReleaseStack } from './wiring/release-stack.js';

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  /** Calls `listener` when the user asks to stop (the first SIGINT/SIGTERM). */
  onShutdown(listener: () => void): void;
  /** Where a command pushes what it opens; main.ts releases it all, newest first, once the action is over. */
  releases: ReleaseStack;
}

/** Writes one JSON object and a newline to stdout: the whole of stdout under --json. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Whether stdout and stderr end up in the same place (one terminal, or `2>&1` into one file or
 * pipe): then what stderr already showed need not be printed again on stdout.
 */
export function sameDestination(io: Pick<CliIo, 'stdout' | 'stderr'>): boolean {
  const fdOf = (stream: Writable): unknown => (stream as Writable & { fd?: unknown }).fd;
  const out = fdOf(io.stdout);
  const err = fdOf(io.stderr);
  if (typeof out !== 'number' || typeof err !== 'number') return io.stdout.isTTY === true && io.stderr.isTTY === true;
  try {
    const [a, b] = [fstatSync(out), fstatSync(err)];
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}
