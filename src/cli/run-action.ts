/**
 * Wraps every command action: the exit code chosen by the error's code, and one line for a
 * failure (what, where, how to fix), never a stack trace for expected failures. The line is
 * written by main.ts once what the action opened is released (as `finally` blocks did before it),
 * so a progress bar is gone before it and a closing log line never lands after it.
 */
import { coerceError, errorCode } from '../shared/errors.js';
import { isRedisConnectionError } from '../queue/redis-watch.js';
import { redisRefusal } from '../store/redis-refusal.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';

export type ActionResult = ExitCode | void;

const REDIS_HINT =
  'check that Redis (REDIS_URL, or every node of REDIS_CLUSTER_NODES) is up, then run the command again; an ' +
  'interrupted sync goes on with `listing-sync runs resume ID --work`';

const firstLine = (text: string): string => text.split('\n')[0] ?? '';

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
    // Why before the internal-error line: Redis going away under a command (a cluster master
    // lost with no replica to take over, a connection closed for good) is an outage, not a bug.
    // A command Redis refused (an ACL permission the user lacks): configuration, named with its fix.
    const refused = code === 'UNKNOWN' ? redisRefusal(error) : undefined;
    if (refused !== undefined) return { code: EXIT.usage, report: `listing-sync: Redis ${refused.text}\n` };
    if (code === 'UNKNOWN' && isRedisConnectionError(error)) {
      return { code: EXIT.failed, report: `listing-sync: lost Redis (${firstLine(error.message)}): ${REDIS_HINT}\n` };
    }
    if (code === 'UNKNOWN' && !(thrown instanceof Error && 'code' in thrown)) {
      return { code: EXIT.failed, report: `listing-sync: internal error: ${error.stack ?? error.message}\n` };
    }
    return { code: exitCodeFor(code), report: `listing-sync: ${error.message}\n` };
  }
}
