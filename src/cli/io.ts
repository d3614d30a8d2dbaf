/**
 * What a command may touch of the process: passed in so commands never read globals, and tests
 * can run them with plain objects.
 */
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
