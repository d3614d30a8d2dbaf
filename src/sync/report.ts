/**
 * The --report file: the whole plan with per-field changes and every rejected row, as JSON, or
 * as CSV (one line per change, delete or rejection) when the path ends in .csv. A field the
 * service never reads back has no old value: its row says so instead of showing a hash.
 */
import { HIDDEN_FIELDS_CHANGE } from '../domain/field-changes.js';
import type { FieldChange } from '../domain/plan.js';
import { csvLine } from './csv-cell.js';
import { NOT_READ_BACK_NOTE } from './format-summary.js';
import type { RejectedRow, SyncOutcome } from './summary.js';

const CSV_HEADER = ['action', 'key', 'key_type', 'field', 'from', 'to', 'line', 'reason'] as const;

/** The key a rejected row is listed under: its key, or a broken row's candidates ("A | B"). */
function rejectedKey(row: RejectedRow): string {
  return row.key ?? row.keyCandidates?.join(' | ') ?? '';
}

/** Rejected rows alone as CSV (the dashboard's download uses the same encoding). */
export function rejectedRowsCsv(rows: readonly RejectedRow[]): string {
  let out = csvLine(['line', 'key', 'field', 'value', 'reason']);
  for (const row of rows) out += csvLine([row.line, rejectedKey(row), row.field, row.value, row.reason]);
  return out;
}

/** A rejected row as one line of the CSV report. */
export function rejectedCsvLine(row: RejectedRow, keyType: string): string {
  return csvLine(['rejected', rejectedKey(row), keyType, row.field, row.value, '', row.line, row.reason]);
}

/** What the CSV says of an old value the service never read back. */
export const OLD_VALUE_UNKNOWN = 'old value unknown (not read back)';

/** One field change of an update: a field not read back has no old value to show, and an entry that names no field says why. */
function changeCsvLine(key: string, keyType: string, change: FieldChange): string {
  if (change.field === HIDDEN_FIELDS_CHANGE) return csvLine(['update', key, keyType, '', OLD_VALUE_UNKNOWN, '', '', UNNAMED_REASON]);
  if (change.notReadBack === true)
    return csvLine(['update', key, keyType, change.field, OLD_VALUE_UNKNOWN, change.to, '', NOT_READ_BACK_NOTE]);
  return csvLine(['update', key, keyType, change.field, change.from, change.to, '', '']);
}

/** The reason of a change whose fields cannot be named (planner.ts HIDDEN_FIELDS_CHANGE). */
const UNNAMED_REASON = 'fields not read back by the service changed; which ones is unknown (ledger entry from before per-field hashes)';

export function outcomeCsv(outcome: SyncOutcome): string {
  const { plan } = outcome;
  const lines: string[] = [csvLine(CSV_HEADER)];
  for (const create of plan.creates) lines.push(csvLine(['create', create.key, plan.keyType, '', '', '', '', '']));
  for (const update of plan.updates) {
    for (const change of update.changes) lines.push(changeCsvLine(update.key, plan.keyType, change));
  }
  for (const del of plan.deletes) lines.push(csvLine(['delete', del.key, del.keyType, '', '', '', '', del.reason]));
  for (const row of outcome.rejected) lines.push(rejectedCsvLine(row, plan.keyType));
  return lines.join('');
}

export function outcomeJson(outcome: SyncOutcome): string {
  return `${JSON.stringify(
    {
      summary: outcome.summary,
      plan: {
        creates: Array.from(outcome.plan.creates, (c) => ({ key: c.key, listing: c.listing })),
        updates: Array.from(outcome.plan.updates, (u) => ({ key: u.key, remoteId: u.remoteId, changes: u.changes })),
        deletes: outcome.plan.deletes,
        unchanged: outcome.plan.unchanged,
      },
      rejected: outcome.rejected,
      remoteDuplicates: outcome.remoteDuplicates,
      remoteUnkeyed: outcome.remoteUnkeyed,
    },
    null,
    2,
  )}\n`;
}
