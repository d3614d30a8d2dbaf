/**
 * `sync --replicate --events`: replication by the EntityEvent resource (RESO RCP-027) instead of
 * by ModificationTimestamp. Each run reads the events after the source's stored sequence, fetches
 * only the listings they name (event-pull.ts), and stores the largest sequence read once the
 * run's jobs are queued, as the timestamp watermark is.
 *
 * A full resync instead, when the events cannot be trusted to hold every change:
 * - a first run (no sequence stored);
 * - a retention gap: the oldest event the server still holds lies past the stored sequence + 1,
 *   so events after the watermark may have been purged.
 * The resync reads the newest sequence FIRST, then does the key sweep and the full pull: a change
 * made during the pull is then in the next run's events, never lost between the two. Its deletes
 * come from the complete sweep only, and nothing is deleted or the sequence stored unless both
 * the sweep and the pull completed.
 *
 * A listing with a Property event that the server no longer returns is gone. Its chatbot key
 * (ListingId or ListingURL) cannot be read from a record that no longer exists, so a run with
 * removals also sweeps the keys (keys only, one request per page) and deletes as a sweep does,
 * through the same guard; a run without removals sweeps nothing.
 */
import type { DisplaySettings } from '../feed/display-step.js';
import { replicationMapping } from '../feed/reso-api/replication-mapping.js';
import { replicatedFeed, sweptKeys } from '../feed/reso-api/replicated-feed.js';
import { hostedRun } from '../feed/media/hosted-run.js';
import { retentionGap } from '../feed/reso-api/entity-events.js';
import { propertyFields } from '../feed/reso-api/service-metadata.js';
import type { SourceMetadata } from '../feed/reso-api/source-metadata.js';
import type { EventDeps, EventRead, EventRun, ReplicationDeps, ReplicationProgress, StartedReplication } from './replication-types.js';
import type { SyncRequest } from './sync-request.js';

/** Starts the timestamp machinery for a resync: every record, the key sweep first. */
export type FullPull = (
  deps: ReplicationDeps,
  request: SyncRequest,
  progress: ReplicationProgress,
) => Promise<StartedReplication & { since?: string }>;

/**
 * Asks the server for its sequence bounds, and decides from the stored sequence (undefined: none)
 * whether the run resyncs or reads the events after it; reads them (by the server's own `known`
 * key and fields) when it does not resync, with the `recheck` listings (photos still pending).
 */
export async function readEventLog(
  events: Pick<EventDeps, 'bounds' | 'pull'>,
  stored: number | undefined,
  known: SourceMetadata,
  recheck: readonly string[] = [],
): Promise<EventRead> {
  const bounds = await events.bounds();
  const spent = { requests: bounds.requests, bytes: bounds.bytes };
  // Why the newest read before the pull: what changes during the pull is after it, so the next run reads it.
  if (stored === undefined) return { mode: 'resync', reason: 'first run', sequence: bounds.newest ?? 0, ...spent };
  if (retentionGap(stored, bounds.oldest)) return { mode: 'resync', reason: 'retention gap', sequence: bounds.newest ?? stored, ...spent };
  return { mode: 'events', from: stored, pulled: await events.pull(stored, known, recheck), ...spent };
}

/** Decides events or resync, and starts the run; called by startReplication for `--events` requests. */
export async function startEventReplication(
  deps: ReplicationDeps & { events: EventDeps },
  request: SyncRequest,
  progress: ReplicationProgress,
  { display, known }: { display: DisplaySettings | undefined; known: SourceMetadata },
  fullPull: FullPull,
): Promise<StartedReplication & { since?: string }> {
  const source = await deps.sources.show(request.chatbot, deps.feedId);
  const stored = source?.eventSequence;
  // Why the pending listings: they have no event of their own, and a resync reads them anyway.
  const recheck = deps.sharedEvents !== undefined || stored === undefined || deps.photos === undefined ? [] : await deps.photos.pending();
  const read = deps.sharedEvents === undefined ? await readEventLog(deps.events, stored, known, recheck) : await deps.sharedEvents();
  const spent = { requests: read.requests, bytes: read.bytes };
  const after = stored === undefined ? {} : { after: stored };
  if (read.mode === 'resync') {
    const started = await fullPull(deps, request, progress);
    const events: EventRun = { mode: 'resync', reason: read.reason, sequence: read.sequence, ...after, ...spent };
    return { ...started, events };
  }
  const { pulled } = read;
  const events: EventRun = {
    mode: 'events',
    ...(pulled.lastSequence === undefined
      ? pulled.run.result().complete
        ? { sequence: read.from }
        : {}
      : { sequence: pulled.lastSequence }),
    ...after,
    ...spent,
    events: pulled.events.events,
    listings: pulled.events.listings,
    gone: pulled.gone.length,
  };
  const mapping = await replicationMapping(request.keyType, request.feed.mapping, propertyFields(known.metadata));
  // With a media store the events' records are hosted like a pull's (photo-hosting.ts).
  const hosting = deps.photos?.hosting;
  const feed = replicatedFeed(
    hosting === undefined ? pulled.run : hostedRun(pulled.run, hosting),
    request.keyType,
    request.feed.where,
    mapping,
    display,
  );
  const photos = hosting === undefined ? {} : { photos: hosting };
  if (pulled.gone.length === 0) return { feed, events, ...photos, ...(source?.watermark === undefined ? {} : { since: source.watermark }) };
  const run = deps.start({ sweep: true, keyFields: mapping.keyFields, ...known });
  progress.sweepRun = run;
  const swept = await sweptKeys(run, mapping.keyOf);
  const { requests, bytes } = run.result();
  return {
    feed,
    events,
    ...photos,
    ...(swept.complete ? { sweptKeys: swept.keys } : {}),
    sweep: { complete: swept.complete, requests, bytes, ...(!swept.complete && swept.halt ? { halt: swept.halt } : {}) },
    ...(source?.watermark === undefined ? {} : { since: source.watermark }),
  };
}

/**
 * Stores the run's sequence when its jobs were queued and what it read is whole: the pull not
 * halted, and its sweep (a resync's, or an event run's with removals) complete; otherwise the
 * same events are read again next time. Returns the sequence now stored.
 */
export async function finishEventReplication(
  deps: ReplicationDeps,
  request: SyncRequest,
  started: StartedReplication,
  ended: { enqueued: boolean; pullComplete: boolean },
): Promise<number | undefined> {
  const run = started.events;
  if (run === undefined || deps.events === undefined) return undefined;
  const whole = ended.pullComplete && (started.sweep === undefined || started.sweep.complete);
  if (!ended.enqueued || !whole || run.sequence === undefined) return run.after;
  await deps.events.advance(request.chatbot, deps.feedId, run.sequence, run.mode);
  return Math.max(run.sequence, run.after ?? 0);
}
