/**
 * What `schedule add` checks before it stores a schedule, so that a mistake shows when it is made
 * rather than at 2 a.m. in a worker: the cron pattern (src/queue/cron.ts), and a feed the worker
 * will be able to read — a URL of the right form, or a file named by an absolute path (a worker
 * runs from its own directory) that exists now.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { cronProblem, CRON_EXAMPLE } from '../queue/cron.js';
import { displaySource, isUrl } from '../feed/feed-source.js';

/** The one line saying what is wrong with the pattern and how it should look, or undefined. */
export function cronLineProblem(pattern: string, tz: string | undefined): string | undefined {
  const problem = cronProblem(pattern, tz);
  return problem === undefined ? undefined : `--cron '${pattern}' is not a cron pattern: ${problem}; ${CRON_EXAMPLE}`;
}

/** The one line saying why a worker could not read `feed` when the schedule fires, or undefined. */
export async function scheduledFeedProblem(feed: string): Promise<string | undefined> {
  if (isUrl(feed)) {
    let host = '';
    try {
      host = new URL(feed).host;
    } catch {
      // Not a URL at all: said below.
    }
    return host === '' ? `--feed ${displaySource(feed)} is not a valid http(s) URL (e.g. https://feeds.example.com/acme.csv)` : undefined;
  }
  const fix = 'a scheduled feed path must be absolute (a worker reads it from its own directory) and exist now';
  if (!isAbsolute(feed)) return `--feed '${feed}' is relative: ${fix}; here it would be ${resolve(feed)}`;
  const found = await stat(feed).then(
    (info) => (info.isFile() ? 'file' : 'not a file'),
    (thrown: NodeJS.ErrnoException) => thrown.code ?? 'unreadable',
  );
  if (found === 'file') return undefined;
  const what = found === 'ENOENT' ? 'does not exist' : found === 'not a file' ? 'is not a file' : `cannot be read (${found})`;
  return `--feed '${feed}' ${what}: ${fix}, or be an http(s) URL`;
}
