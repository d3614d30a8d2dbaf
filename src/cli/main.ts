#!/usr/bin/env node
/**
 * The composition root's entry: argv → commander → command modules → exit code.
 * Only this folder (and config.ts) reads process.env/argv or exits the process.
 */
import { CommanderError } from 'commander';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import { buildProgram } from './program.js';

/** Forced-exit timer: a shutdown that hangs longer than this is visible instead of silent. */
const FORCED_EXIT_MS = 30_000;

async function main(): Promise<void> {
  const shutdownListeners: Array<() => void> = [];
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled += 1;
    if (signalled > 1) {
      process.stderr.write(`listing-sync: second ${signal}, exiting now\n`);
      process.exit(130);
    }
    for (const listener of shutdownListeners) listener();
    setTimeout(() => {
      process.stderr.write(`listing-sync: shutdown did not finish within ${FORCED_EXIT_MS} ms, forcing exit\n`);
      process.exit(EXIT.failed);
    }, FORCED_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const io: CliIo = {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    onShutdown: (listener) => void shutdownListeners.push(listener),
  };
  let exitCode: ExitCode = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(process.argv);
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      // Why: help and version are not failures; every other commander error is a usage error.
      exitCode = thrown.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      throw thrown;
    }
  }
  process.exitCode = exitCode;
}

await main();
