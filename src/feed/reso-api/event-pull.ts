/**
 * One EntityEvent run: the events after the stored sequence, coalesced, the Media events
 * resolved to their listings, then those listings read by `ListingKey in (...)` (at most 100 keys
 * a request, photos by `$expand=Media`, or from the Media resource where `$expand` is refused, as
 * a pull does), with the `recheckKeys` a previous run left short of photos in the same requests
 * (photo-hosting.ts), as a timestamp pull re-reads them. Read in full before planning starts, because what is absent decides the deletes:
 * a listing with a Property event that the server no longer returns is gone.
 *
 * A halt (the budget, a server stopping short of its count) keeps what arrived: its records are
 * applied as a pull's are, but the sequence does not move and nothing is deleted on its word.
 */
import { feedInterrupted } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { isPullHalt } from './replicated-feed.js';
import { FeedClient } from './feed-client.js';
import { keyChunks, listingKeysOfMedia, readEventsAfter, resourceBeside, sequenceBounds, type CoalescedEvents } from './entity-events.js';
import { keyedPages, newProgress, type JsonSource } from './keyed-pager.js';
import { translateLookups } from './lookups.js';
import { attachMediaFromResource, sortExpandedMedia } from './media.js';
import type { ReplicateOptions, ReplicationRun } from './replicate.js';
import { replicationFields } from './replication-fields.js';
import { replicationQuery } from './replication-query.js';
import { pullIncomplete, refusedStatus } from './reso-errors.js';
import type { ReplicationResult, ResoRecord } from './types.js';

export interface EventPull {
  /** The records read, as a replication run (a halt is thrown after them, as a pull's is). */
  run: ReplicationRun;
  /** ListingKeys with a Property event that the server did not return: deleted there. Empty after a halt. */
  gone: string[];
  /** The sequence to store once the run's jobs are queued; undefined after a halt (or when no event was read). */
  lastSequence: number | undefined;
  /** The events read and what they named, for the summary. */
  events: Pick<CoalescedEvents, 'events'> & { listings: number };
}

type Media = ReplicationResult['media'];

/** Reads `keys` from the Property resource; `media` becomes 'resource' when the server refuses `$expand`. */
async function recordsOf(
  client: JsonSource,
  keys: readonly string[],
  options: ReplicateOptions & { pageSize: number },
  media: { how: Media },
): Promise<ResoRecord[]> {
  const records: ResoRecord[] = [];
  const logger = options.logger === undefined ? {} : { logger: options.logger };
  const fields = replicationFields(options.metadata);
  for (const filter of keyChunks(fields.key, keys)) {
    const read = async (): Promise<ResoRecord[]> => {
      const pick = {
        fields,
        keyFields: options.keyFields ?? ['ListingId'],
        expandMedia: media.how === 'expand',
        ...(options.select === undefined ? {} : { select: options.select }),
      };
      const query = { ...replicationQuery(pick), filter };
      const progress = newProgress();
      const rows: ResoRecord[] = [];
      const order = { timestampField: fields.timestamp, keyField: fields.key };
      for await (const page of keyedPages(
        client,
        { resourceUrl: options.propertyUrl, query, order, pageSize: options.pageSize, ...logger },
        progress,
      ))
        rows.push(...page);
      if (!progress.complete) throw pullIncomplete(displaySource(options.propertyUrl), progress.received, progress.expected);
      return rows;
    };
    let rows: ResoRecord[];
    try {
      rows = await read();
    } catch (thrown) {
      if (media.how !== 'expand' || refusedStatus(thrown) !== 400) throw thrown;
      media.how = 'resource';
      rows = await read();
    }
    if (media.how === 'resource')
      await attachMediaFromResource(client, rows, {
        mediaUrl: options.mediaUrl ?? resourceBeside(options.propertyUrl, 'Media'),
        pageSize: options.pageSize,
        fields,
        ...logger,
      });
    else if (media.how === 'expand') sortExpandedMedia(rows);
    records.push(...rows);
  }
  return records;
}

/** Runs the events after `after` to their end (or a halt); failures other than halts are thrown. */
export async function pullEvents(options: ReplicateOptions & { after: number }): Promise<EventPull> {
  const client = new FeedClient(options);
  const pageSize = options.pageSize ?? 1000;
  const media: { how: Media } = { how: options.media ?? 'expand' };
  const where = displaySource(options.propertyUrl);
  const logger = options.logger === undefined ? {} : { logger: options.logger };
  const fields = replicationFields(options.metadata);
  let records: ResoRecord[] = [];
  let halt: Error | undefined;
  let coalesced: CoalescedEvents | undefined;
  let gone: string[] = [];
  let listings = 0;
  try {
    coalesced = await readEventsAfter(client, {
      eventsUrl: resourceBeside(options.propertyUrl, 'EntityEvent'),
      after: options.after,
      pageSize,
      ...logger,
    });
    const ofPhotos = await listingKeysOfMedia(client, coalesced.mediaKeys, {
      mediaUrl: options.mediaUrl ?? resourceBeside(options.propertyUrl, 'Media'),
      pageSize,
      mediaKey: fields.mediaKey,
      ...logger,
    });
    const named = new Set([...coalesced.propertyKeys, ...ofPhotos]);
    listings = named.size;
    // Why the recheck keys too: a listing a previous run left short of photos has no event of its own to bring it back.
    const keys = [...new Set([...named, ...(options.recheckKeys ?? [])])];
    records = await recordsOf(client, keys, { ...options, pageSize }, media);
    if (options.lookups !== undefined) translateLookups(records, options.lookups);
    if (options.signal?.aborted === true) throw feedInterrupted(where);
    const returned = new Set(records.map((record) => String(record[fields.key])));
    // Why only Property events: a Media event says a photo changed, never that its listing went.
    gone = coalesced.propertyKeys.filter((key) => !returned.has(key));
  } catch (thrown) {
    if (!isPullHalt(thrown) || !(thrown instanceof Error)) throw thrown;
    halt = thrown;
  }
  const result = (): ReplicationResult => ({
    complete: halt === undefined,
    // Why none: the timestamp watermark belongs to timestamp pulls; an event run moves the sequence.
    maxTimestamp: undefined,
    requests: client.requests,
    bytes: client.bytes,
    records: records.length,
    pageSize,
    pagedBy: undefined,
    media: media.how,
  });
  async function* pages(): AsyncGenerator<ResoRecord[], ReplicationResult, undefined> {
    // The records were read before planning (the removals decide the sweep); the pause keeps the generator async like a pull's.
    await Promise.resolve();
    if (records.length > 0) yield records;
    if (halt !== undefined) throw halt;
    return result();
  }
  return {
    run: { pages: pages(), result },
    gone: halt === undefined ? gone : [],
    lastSequence: halt === undefined ? coalesced?.lastSequence : undefined,
    events: { events: coalesced?.events ?? 0, listings },
  };
}

/** The oldest and newest sequence the server holds, through the feed client's policies; with the requests it took. */
export async function eventBounds(
  options: ReplicateOptions,
): Promise<{ oldest?: number; newest?: number; requests: number; bytes: number }> {
  const client = new FeedClient(options);
  const bounds = await sequenceBounds(client, resourceBeside(options.propertyUrl, 'EntityEvent'));
  return { ...bounds, requests: client.requests, bytes: client.bytes };
}
