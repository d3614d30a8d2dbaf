/**
 * The exit code of every error code, pinned: exit codes are a contract with schedulers and scripts
 * (docs/configuration.md, "Exit codes"), so moving the table must not change one. A new code must be pinned here.
 */
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { ERROR_CODES, ErrorCode } from '../../src/shared/error-codes.js';

const PINNED: Record<string, number> = {
  ENVELOPE_FAILURE: 1,
  HTTP_STATUS: 1,
  AUTH_FAILED: 1,
  INVALID_JSON: 1,
  CONTRACT_MISMATCH: 1,
  NETWORK: 1,
  TIMEOUT: 1,
  MISSING_CREDENTIAL: 2,
  MISSING_CONFIG: 1,
  INVALID_INPUT: 2,
  ABORTED: 1,
  UNKNOWN: 1,
  USAGE: 2,
  CONFIG: 2,
  KEY_CLAIMED: 1,
  SEND_WINDOW_PASSED: 1,
  CLAIM_LOST: 1,
  SERVICE_DOWN: 1,
  QUEUE_HELD: 1,
  STALLED: 1,
  INTERRUPTED: 1,
  REDIS_UNAVAILABLE: 1,
  NOT_FOUND: 1,
  CHATBOT_NOT_FOUND: 2,
  CHATBOT_BUSY: 3,
  GUARD_REFUSED: 3,
  WAIT_TIMEOUT: 1,
  SPOOL_UNWRITABLE: 1,
  ENQUEUE_THREAD_EXIT: 1,
  FEED_WORKER_EXIT: 1,
  FEED_UNREADABLE: 2,
  MAPPING_INVALID: 2,
  FEED_INTERRUPTED: 1,
  FEED_RATE_LIMITED: 1,
  FEED_AUTH_FAILED: 2,
  FEED_SERVER_ERROR: 1,
  BUDGET_EXHAUSTED: 1,
  FEED_INCOMPLETE: 1,
  WEBHOOK_FAILED: 1,
  WEBHOOK_REJECTED: 1,
  WEBHOOK_TIMEOUT: 1,
  WEBHOOK_UNREACHABLE: 1,
};

describe('exit code of each error code', () => {
  it('the table holds exactly the pinned codes', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(PINNED).sort());
  });

  it.each(Object.entries(PINNED))('%s exits %i', (code, exit) => {
    expect(exitCodeFor(code)).toBe(exit);
  });

  it("a code that is not the tool's (a Node or library code) exits 1", () => {
    for (const code of ['ENOENT', 'UND_ERR_SOCKET', '', 'toString', '__proto__']) expect(exitCodeFor(code)).toBe(1);
  });

  it('names each code by itself', () => {
    for (const code of ERROR_CODES) expect(ErrorCode[code]).toBe(code);
  });
});
