/** Process exit codes: a contract with schedulers and scripts (docs/architecture.md "Contracts"). */
import { EXIT, exitCodeOf, type ExitCode } from '../shared/error-codes.js';
import type { RunVerdict } from '../sync/run-verdict.js';

export { EXIT, type ExitCode };

/** Maps an error's stable code to the exit code the contract promises (the table in src/shared/error-codes.ts). */
export function exitCodeFor(code: string): ExitCode {
  return exitCodeOf(code);
}

/** The exit code a run's verdict earns: 0 done, 1 some jobs failed or the run did not complete, 3 refused. */
export function exitCodeOfVerdict(verdict: RunVerdict): ExitCode {
  if (verdict === 'refused') return EXIT.refused;
  return verdict === 'failed' ? EXIT.failed : EXIT.ok;
}
