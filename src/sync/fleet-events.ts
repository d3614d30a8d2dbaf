/**
 * The one EntityEvent read of a fleet source (`events: true`, `fleet run`): the source's event
 * log read once for all its chatbots, from the oldest of their stored sequences, and replayed to
 * each chatbot's sync as its own `--events` run (event-replication.ts).
 *
 * - Where it starts: the oldest sequence among the chatbots (each keeps its own under (chatbot,
 *   feed), where `sync --replicate --events` keeps it). A chatbot with none yet (new on the
 *   source), or a retention gap after the oldest, makes the run a full resync for every chatbot:
 *   the key sweep and the whole pull, shared (fleet-pull.ts), deletes only from that complete sweep.
 * - Otherwise the events are coalesced and their listings read once (`ListingKey in (...)`, 100 a
 *   request); removals add one key sweep, shared, and each chatbot deletes through its own guard.
 * - Why the oldest: each chatbot stores the sequence only once its own jobs are queued, so the
 *   source's sequence (the oldest) moves only after every chatbot's jobs were queued; a chatbot
 *   further ahead reads some events again, which plan as unchanged (no write).
 */
import { coerceError } from '../shared/errors.js';
import type { EventPull } from '../feed/reso-api/event-pull.js';
import type { SourceMetadata } from '../feed/reso-api/source-metadata.js';
import { readEventLog } from './event-replication.js';
import { sourceOf } from './kept-metadata.js';
import { knownMetadata } from './replication.js';
import { pendingPhotosOf, pullOnce, sharedOf, spoolFiles, type SharedPull, type SharedPullOptions } from './fleet-pull.js';
import type { EventDeps, EventRead, ReplicationDeps } from './replication-types.js';
import { spoolPull } from './spooled-pull.js';

/** What the source's one event read did, for `fleet run`'s report. */
export interface FleetEventFigures {
  mode: 'events' | 'resync';
  reason?: 'first run' | 'retention gap';
  /** The oldest of the chatbots' sequences: the events were read after it (absent: a chatbot had none). */
  after?: number;
  /** Events read, the listings they named, and the listings found gone (an event read). */
  events?: number;
  listings?: number;
  gone?: number;
}

export type SharedEventPull = SharedPull & { events?: FleetEventFigures };

/** The oldest of the chatbots' sequences, or undefined when one of them has none. */
export function oldestSequence(sequences: ReadonlyArray<number | undefined>): number | undefined {
  let oldest: number | undefined;
  for (const sequence of sequences) {
    if (sequence === undefined) return undefined;
    oldest = oldest === undefined ? sequence : Math.min(oldest, sequence);
  }
  return oldest;
}

/** Each chatbot's deps: the shared pages, and the shared read (a fresh replay of the event run each time). */
function withEvents(shared: SharedPull, read: () => Promise<EventRead>): SharedPull {
  return { ...shared, depsFor: (own) => ({ ...shared.depsFor(own), sharedEvents: read }) };
}

/** Reads the source's event log once for `chatbots`, through `source` (one of their requests' wiring). */
export async function pullEventsOnce(
  source: ReplicationDeps & { events: EventDeps },
  chatbots: readonly string[],
  options: SharedPullOptions,
): Promise<SharedEventPull> {
  const sequences = await Promise.all(chatbots.map(async (chatbot) => (await source.sources.show(chatbot, source.feedId))?.eventSequence));
  const after = oldestSequence(sequences);
  const from = after === undefined ? {} : { after };
  let read: EventRead;
  let known: SourceMetadata;
  try {
    const metadata = await knownMetadata(source);
    known = sourceOf(metadata);
    const bounds = await readEventLog(source.events, after, known, after === undefined ? [] : await pendingPhotosOf(source, chatbots));
    // Why added here: the metadata read is the source's, paid once for all its chatbots.
    read = { ...bounds, requests: bounds.requests + metadata.requests, bytes: bounds.bytes + metadata.bytes };
  } catch (thrown) {
    // Why not thrown here: each chatbot's run fails with it (and is recorded failed), as with a failed pull.
    const failure = coerceError(options.explain === undefined ? thrown : options.explain(thrown));
    const failed = sharedOf({ close: () => undefined });
    return withEvents(failed, () => Promise.reject(failure));
  }
  const spent = { requests: read.requests, bytes: read.bytes };
  if (read.mode === 'resync') {
    const shared = await pullOnce(source, chatbots, { ...options, full: true, spent });
    return {
      ...withEvents(shared, () => Promise.resolve(read)),
      events: { mode: 'resync', reason: read.reason, ...from },
    };
  }
  const pulled = read.pulled;
  const files = spoolFiles(options.spoolDir);
  try {
    const explain = options.explain === undefined ? {} : { explain: options.explain };
    const pull = await spoolPull(pulled.run, files.open(), explain);
    const keyFields = options.keyFields === undefined ? {} : { keyFields: options.keyFields };
    // Why a sweep only with removals: a gone listing's chatbot key can only be learnt from the keys still there.
    const sweep =
      pulled.gone.length === 0 ? undefined : await spoolPull(source.start({ sweep: true, ...keyFields, ...known }), files.open(), explain);
    const shared = sharedOf({ pull, ...(sweep === undefined ? {} : { sweep }), spent, close: files.close });
    const replayed = (): EventPull => ({ ...pulled, run: pull.replay() });
    const events = { events: pulled.events.events, listings: pulled.events.listings, gone: pulled.gone.length };
    return {
      ...withEvents(shared, () => Promise.resolve({ ...read, pulled: replayed() })),
      events: { mode: 'events', ...from, ...events },
    };
  } catch (thrown) {
    files.close();
    throw thrown;
  }
}
