/** The line `sync --replicate` adds to its summary: what was pulled, what it cost, where the watermark stands. */
import type { ReplicationOutcome } from '../../sync/replication.js';
import { plural } from './plural.js';

export function replicationLine(outcome: ReplicationOutcome): string {
  const from = outcome.since === undefined ? 'full pull' : `since ${outcome.since}`;
  const sweep =
    outcome.sweep === undefined
      ? ''
      : outcome.sweep.complete
        ? `, sweep complete (${outcome.sweep.deleted} deleted)`
        : ', sweep incomplete (nothing deleted)';
  return (
    `replication (${from}): ${outcome.status}, ${plural(outcome.recordsPulled, 'record')}, ` +
    `${plural(outcome.requests, 'request')}, ${plural(outcome.bytes, 'byte')}${sweep}; watermark ` +
    `${outcome.watermark ?? '-'}\n`
  );
}
