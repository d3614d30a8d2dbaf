/** `jobs failed` for people: a header, one row per failed job with the service's Code and Message, and how to retry. */
import type { FailedJobRow } from '../../queue/failed-jobs.js';
import { count, plural } from '../../shared/counts.js';
import { textTable } from './text-table.js';

const HEADER = ['JOB', 'RUN', 'CHATBOT', 'KEY', 'ATTEMPTS', 'CODE: MESSAGE'] as const;

/** The retry command of each run the rows belong to (one line for one run), then the way to retry them all. */
function retryLines(rows: readonly FailedJobRow[], runId: string | undefined): string[] {
  const runs = runId === undefined ? [...new Set(rows.map((row) => row.runId))] : [runId];
  if (runs.length === 1) return [`retry: listing-sync jobs retry --run ${runs[0] ?? ''} [--work]`];
  return [
    `${plural(rows.length, 'failed job')} of ${plural(runs.length, 'run')}`,
    `retry one run: listing-sync jobs retry --run ${runs[0] ?? ''} [--work]; every failed job: listing-sync jobs retry --all`,
  ];
}

export function failedJobsTable(rows: readonly FailedJobRow[], runId: string | undefined): string {
  if (rows.length === 0) return runId === undefined ? 'no failed jobs\n' : `no failed jobs in run ${runId}\n`;
  const table = textTable(
    HEADER,
    rows.map((row) => [row.jobId, row.runId, row.chatbot, row.key, count(row.attempts), `${row.code}: ${row.message}`]),
  );
  return `${[...table, ...retryLines(rows, runId)].join('\n')}\n`;
}
