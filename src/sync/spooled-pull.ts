/**
 * A replication run read once and kept in a spool file (spool-file.ts: unlinked at once, its bytes
 * in the page cache rather than the heap), then replayed as a run of its own to each chatbot of a
 * fleet source. A replay gives the same pages, the same result and, at its end, the same failure
 * the pull ended with (a budget halt included), so each chatbot's sync treats it exactly as it
 * treats a pull of its own: a halted pull deletes nothing, a failed one fails the run.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { coerceError } from '../shared/errors.js';
import type { ReplicationRun } from '../feed/reso-api/replicate.js';
import type { ReplicationResult, ResoRecord } from '../feed/reso-api/types.js';
import type { SpoolFile } from './spool-file.js';

export interface SpooledPull {
  /** A run that gives the spooled pages again (the file is read page by page: one page in memory at a time). */
  replay(): ReplicationRun;
  /** The pull's result as it ended. */
  result(): ReplicationResult;
  /** What ended the pull early (BUDGET_EXHAUSTED, 429s, an abort), rethrown by each replay after its pages. */
  readonly failure: Error | undefined;
}

/** Reads `run` to its end (or its failure, told as `explain` words it) into `file`, one line per page. */
export async function spoolPull(
  run: ReplicationRun,
  file: SpoolFile,
  options: { explain?: (thrown: unknown) => unknown } = {},
): Promise<SpooledPull> {
  const pages: Array<{ offset: number; length: number }> = [];
  let failure: Error | undefined;
  try {
    for (let page = await run.pages.next(); page.done !== true; page = await run.pages.next())
      pages.push(file.append(`${JSON.stringify(page.value)}\n`));
  } catch (thrown) {
    failure = coerceError(options.explain === undefined ? thrown : options.explain(thrown));
  }
  file.flush();
  const ended = run.result();
  async function* replayed(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    for (const { offset, length } of pages) {
      // Why a turn of the event loop per page: a replay is read synchronously from the page cache,
      // and the chatbot's lease renewal and Ctrl-C must still be heard while it is planned.
      await yieldToLoop();
      yield JSON.parse(file.read(offset, length).toString('utf8')) as ResoRecord[];
    }
    if (failure !== undefined) throw failure;
    return ended;
  }
  return { replay: () => ({ pages: replayed(), result: () => ended }), result: () => ended, failure };
}
