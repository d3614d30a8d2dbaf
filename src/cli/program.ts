/**
 * The command tree: every command module registered on one commander program.
 */
import { Command } from 'commander';
import { createHost, type RegisterCommands } from './host.js';
import type { CliIo } from './io.js';
import type { ActionOutcome } from './run-action.js';
import { registerSimCommands } from './commands/sim.js';
import { registerChatbotCommands } from './commands/chatbot.js';
import { registerListingsCommands } from './commands/listings.js';
import { registerTablesCommands } from './commands/tables.js';
import { registerSyncCommands } from './commands/sync.js';
import { registerWorkerCommands } from './commands/worker.js';
import { registerRunsCommands } from './commands/runs.js';
import { registerJobsCommands } from './commands/jobs.js';
import { registerScheduleCommands } from './commands/schedule.js';
import { registerSourcesCommands } from './commands/sources.js';
import { registerDashboardCommands } from './commands/dashboard.js';
import { registerDemoCommands } from './commands/demo.js';
import { registerDoctorCommands } from './commands/doctor.js';
import { registerAlertsCommands } from './commands/alerts.js';
import { registerFleetCommands } from './commands/fleet.js';

const COMMAND_MODULES: readonly RegisterCommands[] = [
  registerSimCommands,
  registerChatbotCommands,
  registerListingsCommands,
  registerTablesCommands,
  registerSyncCommands,
  registerWorkerCommands,
  registerRunsCommands,
  registerJobsCommands,
  registerScheduleCommands,
  registerAlertsCommands,
  registerSourcesCommands,
  registerDashboardCommands,
  registerDemoCommands,
  registerDoctorCommands,
  registerFleetCommands,
];

/** Builds the program; `record` learns what the action came to. Exported for tests that want to inspect the command tree. */
export function buildProgram(io: CliIo, record: (outcome: ActionOutcome) => void): Command {
  const program = new Command('listing-sync')
    .description("Keep a chatbot's real-estate listings equal to a brokerage's listing feeds.")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const host = createHost(io, record);
  for (const register of COMMAND_MODULES) register(program, host);
  return program;
}
