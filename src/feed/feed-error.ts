/**
 * The two ways a feed can fail as a whole. Both are "bad input, fix and rerun" errors (exit 2):
 * the message is one line that says what went wrong, where, and how to fix it.
 */
import { ListingSyncError, errorCode } from '../errors.js';

export const FEED_UNREADABLE = 'FEED_UNREADABLE';
export const MAPPING_INVALID = 'MAPPING_INVALID';
/** The sync was stopped (SIGINT/SIGTERM) while its feed was read; nothing was planned or changed. */
export const FEED_INTERRUPTED = 'FEED_INTERRUPTED';

/** A feed that cannot be read at all: `what` happened at `where`; `fix` says what to do about it. */
export function feedUnreadable(what: string, where: string, fix: string, cause?: unknown): ListingSyncError {
  return new ListingSyncError(FEED_UNREADABLE, `Feed ${where} is unreadable: ${what}. ${fix}`, {
    details: { where },
    cause,
  });
}

/** The feed at `where` was not read to the end because the sync was asked to stop. */
export function feedInterrupted(where: string, cause?: unknown): ListingSyncError {
  return new ListingSyncError(
    FEED_INTERRUPTED,
    `Feed ${where} was not read to the end: the sync was interrupted, so nothing was planned or changed. Run the sync again.`,
    {
      details: { where },
      cause,
    },
  );
}

/** A mapping file with problems; every problem is listed, so one edit fixes them all. */
export function mappingInvalid(path: string, problems: readonly string[], hint?: string): ListingSyncError {
  const noun = problems.length === 1 ? 'problem' : 'problems';
  const tail = hint === undefined ? '' : ` (${hint})`;
  return new ListingSyncError(MAPPING_INVALID, `Mapping file ${path} has ${problems.length} ${noun}: ${problems.join('; ')}${tail}`, {
    details: { path, problems: [...problems] },
  });
}

/** True for errors this module already turned into one-line feed errors (rethrown untouched). */
export function isFeedError(thrown: unknown): boolean {
  const code = errorCode(thrown);
  return code === FEED_UNREADABLE || code === MAPPING_INVALID || code === FEED_INTERRUPTED;
}
