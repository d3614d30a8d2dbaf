/**
 * The handle each command module registers its commands with: the process io (with the release
 * stack, `io.releases`, that actions push what they open onto) and a place to record what the
 * action came to. Built once by main.ts.
 */
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { runAction, type ActionOutcome, type ActionResult } from './run-action.js';

export interface CommandHost {
  io: CliIo;
  /** Runs an action under the common error handling and records its outcome. */
  run(action: () => Promise<ActionResult>): Promise<void>;
}

export function createHost(io: CliIo, record: (outcome: ActionOutcome) => void): CommandHost {
  return {
    io,
    async run(action) {
      record(await runAction(action));
    },
  };
}

/** Signature of every command module's registration function. */
export type RegisterCommands = (program: Command, host: CommandHost) => void;
