/**
 * The --report file written without holding every rejected row: each row is appended to a spill
 * file beside the report as it is read (in the report's own encoding), and the report is then
 * written around it, the spill copied in as a stream. Why: a feed whose million rows all fail
 * would otherwise keep a million row objects in memory until the end of the sync.
 */
import { closeSync, createReadStream, createWriteStream, openSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { errorCode, UsageError } from '../shared/errors.js';
import { outcomeCsv, outcomeJson, rejectedCsvLine } from './report.js';
import type { RejectedRow, SyncOutcome } from './summary.js';

/** Bytes gathered before one write to the spill file. */
const SPILL_BUFFER = 64 * 1024;
const PLACEHOLDER = '"\u0000rejected rows\u0000"';

export interface ReportFile {
  /** Appends one rejected row (SyncDeps.onRejected). */
  add(row: RejectedRow): void;
  /** Writes the report from the outcome (its plan and summary) and every row added. */
  write(outcome: SyncOutcome): Promise<void>;
  /** Removes the spill file; idempotent. */
  close(): void;
}

export function openReportFile(path: string, keyType: string): ReportFile {
  const csv = path.toLowerCase().endsWith('.csv');
  const spillPath = `${path}.rejected-${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(spillPath, 'w');
  } catch (thrown) {
    // Why now: a report that cannot be written stops the sync before anything is read or sent.
    throw new UsageError(`cannot write the report next to ${path} (${errorCode(thrown)}): pass a --report path in a writable directory`);
  }
  let pending = '';
  let rows = 0;
  let closed = false;
  const flush = (): void => {
    if (pending === '') return;
    writeSync(fd, pending);
    pending = '';
  };
  const close = (): void => {
    if (closed) return;
    closed = true;
    closeSync(fd);
    rmSync(spillPath, { force: true });
  };
  return {
    add(row) {
      pending += csv ? rejectedCsvLine(row, keyType) : `${rows === 0 ? '' : ',\n'}    ${JSON.stringify(row)}`;
      rows += 1;
      if (pending.length >= SPILL_BUFFER) flush();
    },
    async write(outcome) {
      flush();
      const [head, tail] = csv ? [outcomeCsv({ ...outcome, rejected: [] }), ''] : splitJson(outcome);
      const out = createWriteStream(path, { encoding: 'utf8' });
      out.write(csv ? head : `${head}[\n`);
      for await (const chunk of createReadStream(spillPath)) if (!out.write(chunk)) await once(out, 'drain');
      out.end(csv ? tail : `\n  ]${tail}`);
      await once(out, 'finish');
    },
    close,
  };
}

/** The JSON report's text before and after its rejected rows. */
function splitJson(outcome: SyncOutcome): [string, string] {
  const text = outcomeJson({ ...outcome, rejected: [] }).replace('"rejected": []', `"rejected": ${PLACEHOLDER}`);
  const at = text.indexOf(PLACEHOLDER);
  return [text.slice(0, at), text.slice(at + PLACEHOLDER.length)];
}
