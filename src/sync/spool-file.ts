/**
 * A temp file a sync spools its planned writes to (plan-spool.ts): opened in a directory (the OS
 * temp directory, TMPDIR), unlinked at once so that nothing is left behind whatever ends the
 * process (a crash, SIGKILL), appended to while the plan is made, read back by offset. Its bytes
 * live in the file system's page cache, not in this process's heap.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ListingSyncError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';

/** Bytes appended before they are written out in one call. */
const FLUSH_BYTES = 1 << 20;

export interface SpoolFile {
  /** Appends `text` (UTF-8); returns where its bytes start and how many there are. */
  append(text: string): { offset: number; length: number };
  /** Writes out what was appended and not yet written. */
  flush(): void;
  /** `length` bytes from `offset` (anything still buffered is written out first). */
  read(offset: number, length: number): Buffer;
  /** Closes the file: its space is freed (it has no name since it was opened). Idempotent. */
  close(): void;
}

/** The one line a spool failure is reported with: what, where, how to fix. */
function spoolError(dir: string, doing: string, thrown: unknown): ListingSyncError {
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return new ListingSyncError(
    ErrorCode.SPOOL_UNWRITABLE,
    `cannot ${doing} the plan's spool file in ${dir} (${reason}); a sync spools its planned creates and updates ` +
      `to the temp directory: set TMPDIR to a writable directory with room for them`,
    { details: { dir }, cause: thrown },
  );
}

/**
 * Opens a spool file in `dir`, readable and writable by this user only, and unlinks it. Throws
 * SPOOL_UNWRITABLE (one line: the directory, the reason, set TMPDIR) when `dir` cannot hold it.
 */
export function openSpoolFile(dir: string): SpoolFile {
  const path = join(dir, `listing-sync-plan-${process.pid}-${randomBytes(6).toString('hex')}.spool`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch (thrown) {
    throw spoolError(dir, 'create', thrown);
  }
  try {
    unlinkSync(path);
  } catch (thrown) {
    closeSync(fd);
    throw spoolError(dir, 'unlink', thrown);
  }
  let written = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  let closed = false;

  function flush(): void {
    if (pendingBytes === 0) return;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingBytes = 0;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, written + at);
    } catch (thrown) {
      throw spoolError(dir, 'write', thrown);
    }
    written += bytes.length;
  }

  return {
    append(text) {
      const length = Buffer.byteLength(text, 'utf8');
      const offset = written + pendingBytes;
      pending.push(text);
      pendingBytes += length;
      if (pendingBytes >= FLUSH_BYTES) flush();
      return { offset, length };
    },
    flush,
    read(offset, length) {
      if (offset + length > written) flush();
      const buffer = Buffer.allocUnsafe(length);
      for (let at = 0; at < length;) {
        const got = readSync(fd, buffer, at, length - at, offset + at);
        if (got === 0) throw new Error(`spool file: ${length} bytes at ${offset} asked, the file ends after ${at}`);
        at += got;
      }
      return buffer;
    },
    close() {
      if (closed) return;
      closed = true;
      pending = [];
      closeSync(fd);
    },
  };
}
