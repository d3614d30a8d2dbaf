/**
 * Wraps every command action: one line on stderr for a failure (what, where, how to fix), the
 * exit code chosen by the error's code, never a stack trace for expected failures.
 */
import { coerceError, errorCode } from '../errors.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

export type ActionResult = ExitCode | void;

/** Runs an action and returns the exit code it earned. */
export async function runAction(io: CliIo, action: () => Promise<ActionResult>): Promise<ExitCode> {
  try {
    const result = await action();
    return result ?? EXIT.ok;
  } catch (thrown) {
    const error = coerceError(thrown);
    const code = errorCode(error);
    if (code === 'UNKNOWN' && !(thrown instanceof Error && 'code' in thrown)) {
      io.stderr.write(`listing-sync: internal error: ${error.stack ?? error.message}\n`);
      return EXIT.failed;
    }
    io.stderr.write(`listing-sync: ${error.message}\n`);
    return exitCodeFor(code);
  }
}
