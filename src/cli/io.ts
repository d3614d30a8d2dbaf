/**
 * What a command may touch of the process: passed in so commands never read globals, and tests
 * can run them with plain objects.
 */
import type { Writable } from 'node:stream';

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  /** Resolves when the user asks to stop (SIGINT/SIGTERM). */
  onShutdown(listener: () => void): void;
}

/** Writes one JSON object and a newline to stdout: the whole of stdout under --json. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Whether progress bars may be drawn: a TTY on stderr and no --json. */
export function wantsProgress(io: CliIo, json: boolean | undefined): boolean {
  return !json && io.stderr.isTTY === true;
}
