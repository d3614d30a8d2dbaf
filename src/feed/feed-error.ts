/**
 * The two ways a feed can fail as a whole. Both are "bad input, fix and rerun" errors (exit 2):
 * the message is one line that says what went wrong, where, and how to fix it.
 */
import { ListingSyncError, errorCode } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

/** A feed that cannot be read at all: `what` happened at `where`; `fix` says what to do about it. */
export function feedUnreadable(what: string, where: string, fix: string, cause?: unknown): ListingSyncError {
  return new ListingSyncError(ErrorCode.FEED_UNREADABLE, `Feed ${where} is unreadable: ${what}. ${fix}`, {
    details: { where },
    cause,
  });
}

/** The feed at `where` was not read to the end because the sync was asked to stop. */
export function feedInterrupted(where: string, cause?: unknown): ListingSyncError {
  return new ListingSyncError(
    ErrorCode.FEED_INTERRUPTED,
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
  return new ListingSyncError(
    ErrorCode.MAPPING_INVALID,
    `Mapping file ${path} has ${problems.length} ${noun}: ${problems.join('; ')}${tail}`,
    {
      details: { path, problems: [...problems] },
    },
  );
}

/** True for errors this module already turned into one-line feed errors (rethrown untouched). */
export function isFeedError(thrown: unknown): boolean {
  const code = errorCode(thrown);
  return code === ErrorCode.FEED_UNREADABLE || code === ErrorCode.MAPPING_INVALID || code === ErrorCode.FEED_INTERRUPTED;
}
