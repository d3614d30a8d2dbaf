/** The lines `sync --replicate` adds to its summary: what was pulled and what it cost, the watermark, why a pull fell short. */
import type { ReplicationOutcome } from '../../sync/replication.js';
import { count, plural } from '../../shared/counts.js';
import { photosLine } from './format-photos.js';

function sweepPart(outcome: ReplicationOutcome): string {
  if (outcome.sweep === undefined) return '';
  return outcome.sweep.complete ? `, sweep complete (${count(outcome.sweep.deleted)} deleted)` : ', sweep incomplete (nothing deleted)';
}

function shortfallPart(outcome: ReplicationOutcome): string {
  const short = outcome.shortfall;
  if (short === undefined) return '';
  const what = short.of === 'sweep' ? 'sweep' : 'pull';
  return `, ${what} received ${count(short.received)} of ${count(short.expected)} records`;
}

/** `--events`: which mode, why a resync, the sequence now stored. */
function eventsFrom(events: NonNullable<ReplicationOutcome['events']>): string {
  const sequence = `sequence ${events.sequence ?? '-'}`;
  if (events.mode === 'resync') return `events: full resync (${events.reason ?? 'resync'}), ${sequence}`;
  const named = `${plural(events.events ?? 0, 'event')} naming ${plural(events.listings ?? 0, 'listing')}`;
  return `events: ${named}, ${events.gone ?? 0} gone, ${sequence}`;
}

export function replicationLine(outcome: ReplicationOutcome): string {
  const from =
    outcome.events !== undefined ? eventsFrom(outcome.events) : outcome.since === undefined ? 'full pull' : `since ${outcome.since}`;
  return (
    `replication (${from}): ${outcome.status}, ${plural(outcome.recordsPulled, 'record')}, ` +
    `${plural(outcome.requests, 'request')}, ${plural(outcome.bytes, 'byte')}${sweepPart(outcome)}${shortfallPart(outcome)}; ` +
    `watermark ${outcome.watermark ?? '-'}\n${photosLine(outcome.photos)}`
  );
}

/**
 * The one stderr line of a replicating run whose pull or sweep was cut short (the budget ran out,
 * or the server stopped serving records it counted), or undefined for a run read to its end.
 */
export function cutShortLine(outcome: ReplicationOutcome): string | undefined {
  const resume = `the next run resumes from watermark ${outcome.watermark ?? '-'}`;
  const received = plural(outcome.recordsPulled, 'record');
  if (outcome.status === 'budget-exhausted')
    return `feed request budget exhausted: ${received} received were applied, nothing was deleted; ${resume}`;
  if (outcome.status !== 'incomplete') return undefined;
  const short = outcome.shortfall;
  const numbers = short === undefined ? '' : ` (${short.of} received ${count(short.received)} of ${count(short.expected)} records)`;
  return (
    `feed server stopped short of its own count${numbers}: what arrived was applied, nothing was deleted; ${resume}. ` +
    'If it keeps happening, ask the MLS why its server stops serving records it counts.'
  );
}
