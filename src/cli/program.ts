/**
 * The command tree: every command module registered on one commander program.
 */
import { Command } from 'commander';
import type { ExitCode } from './exit-codes.js';
import { createHost, type RegisterCommands } from './host.js';
import type { CliIo } from './io.js';
import { registerSimCommands } from './commands/sim.js';
import { registerChatbotCommands } from './commands/chatbot.js';
import { registerListingsCommands } from './commands/listings.js';
import { registerTablesCommands } from './commands/tables.js';
import { registerSyncCommands } from './commands/sync.js';
import { registerQueueCommands } from './commands/queue.js';
import { registerDashboardCommands } from './commands/dashboard.js';
import { registerDemoCommands } from './commands/demo.js';
import { registerDoctorCommands } from './commands/doctor.js';

const COMMAND_MODULES: readonly RegisterCommands[] = [
  registerSimCommands,
  registerChatbotCommands,
  registerListingsCommands,
  registerTablesCommands,
  registerSyncCommands,
  registerQueueCommands,
  registerDashboardCommands,
  registerDemoCommands,
  registerDoctorCommands,
];

/** Builds the program. Exported for tests that want to inspect the command tree. */
export function buildProgram(io: CliIo, record: (code: ExitCode) => void): Command {
  const program = new Command('listing-sync')
    .description('Keep a chatbot\'s real-estate listings equal to a brokerage\'s listing feeds.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const host = createHost(io, record);
  for (const register of COMMAND_MODULES) register(program, host);
  return program;
}

