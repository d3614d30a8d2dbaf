/**
 * The handle each command module registers its commands with: the process io and a place to
 * record the exit code the action earned. Built once by main.ts.
 */
import type { Command } from 'commander';
import type { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { runAction, type ActionResult } from './run-action.js';

export interface CommandHost {
  io: CliIo;
  /** Runs an action under the common error handling and records its exit code. */
  run(action: () => Promise<ActionResult>): Promise<void>;
}

export function createHost(io: CliIo, record: (code: ExitCode) => void): CommandHost {
  return {
    io,
    async run(action) {
      record(await runAction(io, action));
    },
  };
}

/** Signature of every command module's registration function. */
export type RegisterCommands = (program: Command, host: CommandHost) => void;
