/** Process exit codes: a contract with schedulers and scripts (docs/architecture.md "Contracts"). */
import type { RunVerdict } from '../sync/run-verdict.js';

export const EXIT = {
  ok: 0,
  /** Some jobs or rows failed, or a request to the service failed. */
  failed: 1,
  /** Bad usage, bad configuration, unreadable input. Nothing was changed. */
  usage: 2,
  /** Refused by a safety guard. Nothing was changed. */
  refused: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Error codes that mean "fix your input and run again" (exit 2), whoever raised them. */
const USAGE_CODES = new Set([
  'USAGE',
  'CONFIG',
  'MISSING_CREDENTIAL',
  'INVALID_INPUT',
  'FEED_UNREADABLE',
  'MAPPING_INVALID',
  'CHATBOT_NOT_FOUND',
  // Why a usage error: the feed server refused the credentials; FEED_OAUTH_* or FEED_TOKEN must be fixed.
  'FEED_AUTH_FAILED',
]);

/**
 * FEED_RATE_LIMITED (the feed server kept answering 429: the run halted before risking a suspension)
 * and BUDGET_EXHAUSTED (the request budget has no room) are exit 1: nothing is wrong with the input;
 * a later run succeeds from the stored watermark.
 */
/** Maps an error's stable code to the exit code the contract promises. */
export function exitCodeFor(code: string): ExitCode {
  if (USAGE_CODES.has(code)) return EXIT.usage;
  // A chatbot held by another run is refused like a guard refusal: nothing was changed, and a
  // scheduler or script must not mistake it for a failed sync.
  if (code === 'GUARD_REFUSED' || code === 'CHATBOT_BUSY') return EXIT.refused;
  return EXIT.failed;
}

/** The exit code a run's verdict earns: 0 done, 1 some jobs failed or the run did not complete, 3 refused. */
export function exitCodeOfVerdict(verdict: RunVerdict): ExitCode {
  if (verdict === 'refused') return EXIT.refused;
  return verdict === 'failed' ? EXIT.failed : EXIT.ok;
}
