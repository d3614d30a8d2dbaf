/**
 * Wraps every command action: the exit code chosen by the error's code, and one line for a
 * failure (what, where, how to fix), never a stack trace for expected failures. The line is
 * written by main.ts once what the action opened is released (as `finally` blocks did before it),
 * so a progress bar is gone before it and a closing log line never lands after it.
 */
import { coerceError, errorCode } from '../errors.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';

export type ActionResult = ExitCode | void;

/** What an action came to: its exit code and, when it failed, the line that says why. */
export interface ActionOutcome {
  code: ExitCode;
  /** The failure line (with a newline), for stderr. */
  report?: string;
}

/** Runs an action and returns the exit code it earned and the line its failure is reported with. */
export async function runAction(action: () => Promise<ActionResult>): Promise<ActionOutcome> {
  try {
    const result = await action();
    return { code: result ?? EXIT.ok };
  } catch (thrown) {
    const error = coerceError(thrown);
    const code = errorCode(error);
    if (code === 'UNKNOWN' && !(thrown instanceof Error && 'code' in thrown)) {
      return { code: EXIT.failed, report: `listing-sync: internal error: ${error.stack ?? error.message}\n` };
    }
    return { code: exitCodeFor(code), report: `listing-sync: ${error.message}\n` };
  }
}
