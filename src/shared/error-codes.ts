/**
 * Every stable error code the tool raises, and the process exit code each one earns: the one home
 * of both. Errors are classified by these codes, never by class (design convention 2); the CLI maps
 * a failure to its exit code through `exitCodeOf` (src/cli/exit-codes.ts), a contract with
 * schedulers and scripts (design: "Exit codes").
 */

/** Process exit codes. */
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

/**
 * Error code → exit code. Why usage (2): the input must be fixed before a rerun can succeed.
 * Why refused (3): nothing was changed, and a scheduler or script must not mistake it for a failed
 * sync. Everything else is failed (1): a later run may succeed as it is.
 */
const EXIT_OF_CODE = {
  // The service's API (src/api/errors.ts).
  /** The envelope said Success false. */
  ENVELOPE_FAILURE: EXIT.failed,
  /** A non-2xx HTTP status. */
  HTTP_STATUS: EXIT.failed,
  /** The service refused a credential. */
  AUTH_FAILED: EXIT.failed,
  INVALID_JSON: EXIT.failed,
  /** The answer did not match the spec's schema. */
  CONTRACT_MISMATCH: EXIT.failed,
  NETWORK: EXIT.failed,
  TIMEOUT: EXIT.failed,
  /** An API_* credential is not set. */
  MISSING_CREDENTIAL: EXIT.usage,
  MISSING_CONFIG: EXIT.failed,
  /** A value the user gave (flag, file, request) is not valid. */
  INVALID_INPUT: EXIT.usage,
  /** Stopped before an answer came (signal, shutdown). */
  ABORTED: EXIT.failed,

  // The tool's own.
  /** A thrown value without a code (coerceError). */
  UNKNOWN: EXIT.failed,
  /** Bad flags, bad env, bad config files (UsageError). */
  USAGE: EXIT.usage,
  /** The configuration is invalid or incomplete. */
  CONFIG: EXIT.usage,
  /** A job found its listing key claimed by another job writing it now: delayed, not failed. */
  KEY_CLAIMED: EXIT.failed,
  /** A create was about to be sent after its key claim's fence: confirmed again, then sent. */
  SEND_WINDOW_PASSED: EXIT.failed,
  /** A job lost its key claim while waiting to send. */
  CLAIM_LOST: EXIT.failed,
  /** The service is down for everyone (breaker open): the call was not sent. */
  SERVICE_DOWN: EXIT.failed,
  /** The writes queue is held (a 429, an outage) and the process is stopping: the call was not sent. */
  QUEUE_HELD: EXIT.failed,
  /** A job stalled more often than allowed (a worker died on it). */
  STALLED: EXIT.failed,
  /** The process was interrupted by a signal. */
  INTERRUPTED: EXIT.failed,
  REDIS_UNAVAILABLE: EXIT.failed,
  /** A listing asked for by key is not on the chatbot. */
  NOT_FOUND: EXIT.failed,
  /** The chatbot named does not exist on the service. */
  CHATBOT_NOT_FOUND: EXIT.usage,
  /** The chatbot is held by another run. */
  CHATBOT_BUSY: EXIT.refused,
  /** A safety guard refused the plan (mass delete, wipe, completeness). */
  GUARD_REFUSED: EXIT.refused,
  /** `--wait` gave up; the run goes on in the queue. */
  WAIT_TIMEOUT: EXIT.failed,
  /** The plan spool's directory cannot hold it. */
  SPOOL_UNWRITABLE: EXIT.failed,
  ENQUEUE_THREAD_EXIT: EXIT.failed,
  FEED_WORKER_EXIT: EXIT.failed,

  // Feeds (src/feed).
  /** The feed cannot be read at all. */
  FEED_UNREADABLE: EXIT.usage,
  /** The mapping file is invalid or names columns the feed lacks. */
  MAPPING_INVALID: EXIT.usage,
  /** The sync was stopped while its feed was read; nothing was planned or changed. */
  FEED_INTERRUPTED: EXIT.failed,
  /** The feed server kept answering 429: the run halted before risking a suspension; a later run resumes. */
  FEED_RATE_LIMITED: EXIT.failed,
  /** The feed server refused the credentials: FEED_OAUTH_* or FEED_TOKEN must be fixed. */
  FEED_AUTH_FAILED: EXIT.usage,
  /** 5xx or a broken connection, still so after the bounded retries. */
  FEED_SERVER_ERROR: EXIT.failed,
  /** The feed request budget has no room; a later run resumes from the stored watermark. */
  BUDGET_EXHAUSTED: EXIT.failed,
  /** The feed server served fewer records than its @odata.count: what arrived was applied, nothing deleted. */
  FEED_INCOMPLETE: EXIT.failed,

  // Alert webhooks (src/api/webhook.ts).
  WEBHOOK_FAILED: EXIT.failed,
  WEBHOOK_REJECTED: EXIT.failed,
  WEBHOOK_TIMEOUT: EXIT.failed,
  WEBHOOK_UNREACHABLE: EXIT.failed,
} as const satisfies Record<string, ExitCode>;

/** A stable error code the tool raises. */
export type ErrorCode = keyof typeof EXIT_OF_CODE;

/** Every error code, by name: `ErrorCode.CHATBOT_BUSY`. */
export const ErrorCode = Object.freeze(Object.fromEntries(Object.keys(EXIT_OF_CODE).map((code) => [code, code]))) as {
  readonly [C in ErrorCode]: C;
};

/** Every error code, in the table's order. */
export const ERROR_CODES = Object.keys(EXIT_OF_CODE) as readonly ErrorCode[];

/** True when `code` is one of the tool's error codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(EXIT_OF_CODE, code);
}

/** The exit code a failure with `code` earns; failed (1) for a code that is not the tool's (ENOENT, …). */
export function exitCodeOf(code: string | undefined): ExitCode {
  return isErrorCode(code) ? EXIT_OF_CODE[code] : EXIT.failed;
}
