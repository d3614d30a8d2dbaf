/**
 * The command tree: every command module registered on one commander program, with the help's
 * layout (help-layout.ts), `--version`, the exit codes, misspelt flags reported first, and a word
 * left over after a flag's value reported as that flag's (left-over-words.ts).
 */
import type { Command } from 'commander';
import { addExamples, configureHelpWidth, ListingSyncCommand } from './output/help-layout.js';
import { packageVersion } from './package-version.js';
import { reportUnknownFlagsFirst } from './unknown-first.js';
import { reportLeftOverWords } from './left-over-words.js';
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
import { registerMediaCommands } from './commands/media.js';
import { registerDashboardCommands } from './commands/dashboard.js';
import { registerDemoCommands } from './commands/demo.js';
import { registerDoctorCommands } from './commands/doctor.js';
import { registerAlertsCommands } from './commands/alerts.js';
import { registerFleetCommands } from './commands/fleet.js';

// Why this order: the help lists commands as registered; the user's commands first, the test tools last.
const COMMAND_MODULES: readonly RegisterCommands[] = [
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
  registerMediaCommands,
  registerDashboardCommands,
  registerDoctorCommands,
  registerFleetCommands,
  registerDemoCommands,
  registerSimCommands,
];

/** The exit codes (docs/architecture.md "Contracts"), at the end of the top-level help. */
const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  some jobs or rows failed, or a request or Redis failed
  2  bad usage, configuration or unreadable input (nothing was changed)
  3  refused by a safety guard, or the chatbot is busy with another run (nothing
     was changed)

Run 'listing-sync COMMAND --help' for a command's flags and examples.
`;

/** Builds the program; `record` learns what the action came to. Exported for tests that want to inspect the command tree. */
export function buildProgram(io: CliIo, record: (outcome: ActionOutcome) => void): Command {
  const program = new ListingSyncCommand('listing-sync')
    .description("Keep a chatbot's real-estate listings equal to a brokerage's listing feeds.")
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .addHelpText('after', EXIT_CODES_HELP);
  configureHelpWidth(program, io);
  const host = createHost(io, record);
  for (const register of COMMAND_MODULES) register(program, host);
  addExamples(program, io);
  reportUnknownFlagsFirst(program);
  reportLeftOverWords(program);
  return program;
}
