/** Run and job times and run lines as the queue commands print them. */
import type { RunRecord } from '../../store/run-types.js';

/** An epoch-ms time as ISO text, '-' when unknown. */
export function when(ms: number | undefined): string {
  return ms === undefined ? '-' : new Date(ms).toISOString();
}

/**
 * One line of `runs list` (and the head of `runs show`). `source`: the fleet source column, given
 * when the list has one ('-' for a run without a source), so that the lines stay aligned in meaning.
 */
export function runLine(run: RunRecord, source?: string): string {
  const c = run.counts;
  return (
    `${run.id}  ${run.chatbot}  ${source === undefined ? '' : `source ${source}  `}` +
    `${run.status}${run.forced ? ' (forced)' : ''}  ${run.trigger}  ` +
    `${when(run.startedAt)}  created ${c.created}, updated ${c.updated}, deleted ${c.deleted}, failed ${c.failed} ` +
    ` jobs ${c.finishedJobs}/${c.totalJobs}`
  );
}
