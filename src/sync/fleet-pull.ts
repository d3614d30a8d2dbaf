/**
 * The one pull of a replicated fleet source (`fleet run`): since the oldest watermark among its
 * chatbots, or everything when one of them has none yet (a chatbot new on the source gets its
 * whole view on its first run), with the source's key sweep first when it sweeps. The budget is
 * spent once; each chatbot's sync then replays the pull as its own (spooled-pull.ts) and keeps its
 * own watermark under (chatbot, feed), where `sync --replicate` keeps it too.
 *
 * Why the oldest watermark: every chatbot must see every record changed since its own last run;
 * a chatbot further ahead sees some records again, which plan as unchanged (no write).
 */
import { isPullHalt } from '../feed/reso-api/replicated-feed.js';
import { compareStamps, parseStamp } from '../feed/reso-api/timestamps.js';
import type { ReplicationResult } from '../feed/reso-api/types.js';
import type { ReplicationDeps } from './replication.js';
import type { MetadataRead } from './replication-types.js';
import { openSpoolFile, type SpoolFile } from './spool-file.js';
import { spoolPull, type SpooledPull } from './spooled-pull.js';
import { sourceOf } from './kept-metadata.js';
import { knownMetadata } from './replication.js';
import { coerceError } from '../shared/errors.js';

export interface SharedPull {
  /** Where the pull started; undefined for a full pull. */
  since?: string;
  /** The source's key sweep, when it sweeps. */
  sweep?: SpooledPull;
  /** The pull; absent when the sweep failed (each chatbot's run then fails with the sweep's failure). */
  pull?: SpooledPull;
  /** What the source's feed server was asked, sweep and pull together. */
  figures(): { requests: number; records: number; bytes: number };
  /** The replication deps of one chatbot: its own source records, the shared pages. */
  depsFor(own: ReplicationDeps): ReplicationDeps;
  /** Frees the spool files. */
  close(): void;
}

/** The oldest of the chatbots' watermarks, or undefined when one has none (or one cannot be read as a time). */
export function oldestWatermark(watermarks: ReadonlyArray<string | undefined>): string | undefined {
  let oldest: { text: string; stamp: NonNullable<ReturnType<typeof parseStamp>> } | undefined;
  for (const text of watermarks) {
    const stamp = text === undefined ? undefined : parseStamp(text);
    if (text === undefined || stamp === undefined) return undefined;
    if (oldest === undefined || compareStamps(stamp, oldest.stamp) < 0) oldest = { text, stamp };
  }
  return oldest?.text;
}

const NO_FIGURES: Pick<ReplicationResult, 'requests' | 'records' | 'bytes'> = { requests: 0, records: 0, bytes: 0 };

/** Options of a shared pull: the sweep, where the pages are spooled, and how a failure is told (the feed deadline's words). */
export interface SharedPullOptions {
  sweep: boolean;
  spoolDir: string;
  keyFields?: readonly string[];
  /** Every record whatever the watermarks (an EntityEvent resync): the key sweep first, then the whole pull. */
  full?: boolean;
  /** A failure as the chatbots' runs are told it (e.g. the --feed-timeout line); default as thrown. */
  explain?: (thrown: unknown) => unknown;
  /** Asked besides the sweep and the pull (an EntityEvent resync's sequence bounds), counted in the figures. */
  spent?: { requests: number; bytes: number };
}

/** The spool files of one shared pull: each opened on demand, all closed together. */
export function spoolFiles(spoolDir: string): { open: () => SpoolFile; close: () => void } {
  const files: SpoolFile[] = [];
  return {
    open: () => {
      const file = openSpoolFile(spoolDir);
      files.push(file);
      return file;
    },
    close: () => files.forEach((file) => file.close()),
  };
}

/**
 * A shared pull of spooled parts: its sweep and its pull replayed to each chatbot's sync (a
 * chatbot's `start` gives the sweep when it asks for one, else the pull); `spent` is what was
 * asked besides them (an EntityEvent run's sequence bounds).
 */
export function sharedOf(parts: {
  since?: string;
  sweep?: SpooledPull;
  pull?: SpooledPull;
  spent?: { requests: number; bytes: number };
  close: () => void;
}): SharedPull {
  const { sweep, pull } = parts;
  const figures = () => {
    const [a, b] = [sweep?.result() ?? NO_FIGURES, pull?.result() ?? NO_FIGURES];
    const spent = parts.spent ?? { requests: 0, bytes: 0 };
    return { requests: spent.requests + a.requests + b.requests, records: b.records, bytes: spent.bytes + a.bytes + b.bytes };
  };
  return {
    ...(parts.since === undefined ? {} : { since: parts.since }),
    ...(sweep === undefined ? {} : { sweep }),
    ...(pull === undefined ? {} : { pull }),
    figures,
    depsFor: (own) => ({
      ...own,
      start: ({ sweep: sweeping }) => {
        const spooled = sweeping ? sweep : pull;
        // Unreachable by the sync's order (sweep, then pull): a failed sweep ends each run before its pull.
        if (spooled === undefined) throw new Error('fleet pull: the pull was not made (its sweep failed)');
        return spooled.replay();
      },
    }),
    close: parts.close,
  };
}

/**
 * The ListingKeys any of `chatbots` was left short of photos by an earlier run. Why the union: the
 * shared read is the only read of the source, so a listing one chatbot lacks photos of is read for
 * all (the others find it unchanged and write nothing).
 */
export async function pendingPhotosOf(source: ReplicationDeps, chatbots: readonly string[]): Promise<string[]> {
  const { photos } = source;
  if (photos === undefined) return [];
  return [...new Set((await Promise.all(chatbots.map((chatbot) => photos.pendingOf(chatbot)))).flat())];
}

/**
 * Pulls the source once for `chatbots`, through `source` (the wiring of one of their requests:
 * the feed, its credential, budget, page size and overlap are the source's, the same for all).
 */
export async function pullOnce(source: ReplicationDeps, chatbots: readonly string[], options: SharedPullOptions): Promise<SharedPull> {
  const watermarks = await Promise.all(chatbots.map(async (chatbot) => (await source.sources.show(chatbot, source.feedId))?.watermark));
  const since = options.full === true ? undefined : oldestWatermark(watermarks);
  // Why first: the shared pull pages by the server's own key and stamp fields, as each chatbot's run does.
  let read: MetadataRead;
  try {
    read = await knownMetadata(source);
  } catch (thrown) {
    // Why not thrown here: each chatbot's run fails with it (and is recorded failed), as with a failed pull.
    const failure = coerceError(options.explain === undefined ? thrown : options.explain(thrown));
    const failed = sharedOf({ close: () => undefined });
    return { ...failed, depsFor: (own) => ({ ...failed.depsFor(own), metadata: () => Promise.reject(failure) }) };
  }
  const known = sourceOf(read);
  const spent = {
    requests: (options.spent?.requests ?? 0) + read.requests,
    bytes: (options.spent?.bytes ?? 0) + read.bytes,
  };
  const files = spoolFiles(options.spoolDir);
  try {
    const keyFields = { ...known, ...(options.keyFields === undefined ? {} : { keyFields: options.keyFields }) };
    const explain = options.explain === undefined ? {} : { explain: options.explain };
    const sweeps = options.sweep || options.full === true;
    const sweep = sweeps ? await spoolPull(source.start({ sweep: true, ...keyFields }), files.open(), explain) : undefined;
    const recheck = since === undefined ? [] : await pendingPhotosOf(source, chatbots);
    // Why no pull after a failed sweep: each run fails on the sweep first, as `sync --replicate --sweep` does.
    const sweepFailedHard = sweep?.failure !== undefined && !isPullHalt(sweep.failure);
    const pull = sweepFailedHard
      ? undefined
      : await spoolPull(
          source.start(
            since === undefined
              ? { sweep: false, ...known }
              : { watermark: since, sweep: false, ...known, ...(recheck.length === 0 ? {} : { recheckKeys: recheck }) },
          ),
          files.open(),
          explain,
        );
    return sharedOf({
      ...(since === undefined ? {} : { since }),
      ...(sweep === undefined ? {} : { sweep }),
      ...(pull === undefined ? {} : { pull }),
      spent,
      close: files.close,
    });
  } catch (thrown) {
    files.close();
    throw thrown;
  }
}
