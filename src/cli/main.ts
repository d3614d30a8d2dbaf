/**
 * The composition root's entry: argv → commander → command modules → exit code. What the action
 * opened is released here, newest first, whatever happened; then the forced-exit timer bounds how
 * long the process may take to end. Only this folder (and config.ts) reads process.env/argv or
 * exits the process.
 */
import { CommanderError } from 'commander';
import { envSecretValues } from '../config/config-display.js';
import { webhookSecrets } from '../domain/health/webhook-url.js';
import { createScrubber, registerSecrets } from '../shared/secret-scrub.js';
import { createExitGuard } from './exit-guard.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { buildProgram } from './program.js';
import { createReleaseStack } from './wiring/release-stack.js';
import { scrubWrites } from './scrubbed-output.js';
import type { ActionOutcome } from './run-action.js';

/** The values given to --webhook (`--webhook URL` or `--webhook=URL`): secrets from the first byte written. */
function argvWebhooks(argv: readonly string[]): string[] {
  return argv.flatMap((arg, at) => {
    if (arg === '--webhook') return argv[at + 1] === undefined ? [] : [argv[at + 1] as string];
    return arg.startsWith('--webhook=') ? [arg.slice('--webhook='.length)] : [];
  });
}

/** Forced-exit timer: a shutdown or an exit that hangs longer than this is visible instead of silent. */
const FORCED_EXIT_MS = 30_000;

async function main(): Promise<void> {
  const scrubber = createScrubber(envSecretValues(process.env));
  registerSecrets(argvWebhooks(process.argv).flatMap(webhookSecrets));
  scrubWrites(process.stdout, scrubber);
  scrubWrites(process.stderr, scrubber);
  const releases = createReleaseStack();
  const guard = createExitGuard({
    timeoutMs: FORCED_EXIT_MS,
    stderr: process.stderr,
    unreleased: () => releases.pending(),
    exit: (code) => process.exit(code),
    code: EXIT.failed,
  });
  const shutdownListeners: Array<() => void> = [];
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled += 1;
    if (signalled > 1) {
      process.stderr.write(`listing-sync: second ${signal}, exiting now\n`);
      process.exit(130);
    }
    for (const listener of shutdownListeners) listener();
    guard.arm('shutdown did not finish');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Why: `listing-sync … | head` closes the pipe early; like any Unix tool the CLI then stops
  // writing quietly and finishes its command, instead of dying with Node's EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

  const io: CliIo = {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    onShutdown: (listener) => void shutdownListeners.push(listener),
    releases,
  };
  let outcome: ActionOutcome = { code: EXIT.ok };
  const program = buildProgram(io, (recorded) => {
    outcome = recorded;
  });
  try {
    await program.parseAsync(process.argv);
  } catch (thrown) {
    if (!(thrown instanceof CommanderError)) throw thrown;
    // Why: help and version are not failures; every other commander error is a usage error.
    outcome = { code: thrown.exitCode === 0 ? EXIT.ok : EXIT.usage };
  } finally {
    // Armed before releasing: a release that hangs is named by the line too.
    guard.arm('the command ended but the process did not exit');
    const failures = await releases.releaseAll();
    if (outcome.report !== undefined) process.stderr.write(outcome.report);
    for (const { label, error } of failures)
      process.stderr.write(`listing-sync: could not close the ${label}: ${error instanceof Error ? error.message : String(error)}\n`);
    if (failures.length > 0 && outcome.code === EXIT.ok) outcome = { code: EXIT.failed };
  }
  process.exitCode = outcome.code;
}

// Why not a top-level await: the shipped bundle is CommonJS (bundle-loader.ts), which has none.
// A rejection still ends the process with Node's report, as an unhandled rejection does.
void main();
