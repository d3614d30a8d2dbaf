/** Run and job times and run lines as the queue commands print them. */
import type { RunRecord } from '../../store/run-types.js';
import { count } from '../../shared/counts.js';
import { textTable } from './text-table.js';

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
    `${when(run.startedAt)}  created ${count(c.created)}, updated ${count(c.updated)}, ` +
    `deleted ${count(c.deleted)}, failed ${count(c.failed)} ` +
    ` jobs ${count(c.finishedJobs)}/${count(c.totalJobs)}`
  );
}

/**
 * `runs list` for people: a header, one row per run (a SOURCE column only when one run has a fleet
 * source, so an installation without a fleet reads without it), and the next step.
 */
export function runsTable(runs: readonly RunRecord[], sources: ReadonlyArray<string | undefined>, limit: number): string {
  if (runs.length === 0) return 'no runs yet: start one with `listing-sync sync --chatbot SERIAL --feed FILE`\n';
  const withSource = sources.some((source) => source !== undefined);
  const header = [
    'RUN',
    'CHATBOT',
    ...(withSource ? ['SOURCE'] : []),
    'STATUS',
    'TRIGGER',
    'STARTED (UTC)',
    'CREATED',
    'UPDATED',
    'DELETED',
    'FAILED',
    'JOBS',
  ];
  const rows = runs.map((run, i) => {
    const c = run.counts;
    return [
      run.id,
      run.chatbot,
      ...(withSource ? [sources[i] ?? '-'] : []),
      `${run.status}${run.forced ? ' (forced)' : ''}`,
      run.trigger,
      when(run.startedAt),
      count(c.created),
      count(c.updated),
      count(c.deleted),
      count(c.failed),
      `${count(c.finishedJobs)}/${count(c.totalJobs)}`,
    ];
  });
  const more = runs.length >= limit ? [`the newest ${count(limit)} shown; older ones: --limit N`] : [];
  const first = runs[0]?.id ?? '';
  return `${[...textTable(header, rows), ...more, `see one run: listing-sync runs show ${first}`].join('\n')}\n`;
}
