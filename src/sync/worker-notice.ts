/**
 * What a retry or a run in progress says when no worker takes jobs on its prefix: re-queued jobs
 * wait in Redis for one, and without this line a run sits "in progress" for ever with nothing
 * telling why (the CLI's `jobs retry` and the dashboard's run page both say it).
 */
import { queuePrefix, writeWorkersAlive } from '../queue/worker-presence.js';

export { queuePrefix, writeWorkersAlive };

/** The command that starts a worker on `prefix` (the default prefix needs no flag). */
export function startWorkerCommand(prefix: string): string {
  return prefix === 'listing-sync' ? 'npx listing-sync worker' : `npx listing-sync worker --prefix ${prefix}`;
}

/** The notice: none is running, the command that starts one, and (for a run) how to work it in one command. */
export function noWorkerNotice(prefix: string, runId?: string): string {
  const here = runId === undefined ? '' : `, or work them in one process with \`npx listing-sync runs resume ${runId} --work\``;
  return `no worker is running on prefix ${prefix}: its queued jobs wait until one starts: \`${startWorkerCommand(prefix)}\`${here}`;
}
