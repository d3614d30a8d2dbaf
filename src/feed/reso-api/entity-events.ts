/**
 * The EntityEvent resource (RESO RCP-027) as a change log: `EntityEventSequence gt N`, ascending,
 * read by key like any pull (keyed-pager.ts, with the Int64 sequence as the key). An event names
 * a record that was inserted, updated or deleted: there is no event type, so what changed is
 * learned by reading the record (absent = deleted). Events are coalesced per (ResourceName,
 * ResourceRecordKey): a record changed ten times is read once.
 *
 * Media events carry the MediaKey, not the listing's: they are resolved to their Property
 * through the Media resource (`MediaKey in (...)` → ResourceRecordKey). A Media event whose
 * photo is gone cannot be resolved; the photo's Property is then brought up to date by its own
 * event, which a server writes when it changes the Property's photo count or timestamps.
 */
import type { Logger } from '../../runtime/logger.js';
import { displaySource } from '../feed-source.js';
import { keyedPages, newProgress, type JsonSource } from './keyed-pager.js';
import { odataString, odataUrl } from './odata-url.js';
import { pullIncomplete } from './reso-errors.js';
import type { ResoRecord } from './types.js';

export const EVENT_SEQUENCE = 'EntityEventSequence';
const EVENT_RESOURCES = ['Property', 'Media'] as const;
/** Keys per `in (...)` request: a URL of 100 keys stays well under the 8–16 KB servers accept. */
export const KEYS_PER_REQUEST = 100;

/** A resource beside the Property resource (`…/odata/Property` → `…/odata/<name>`), keeping its query string. */
export function resourceBeside(propertyUrl: string, name: string): string {
  const url = new URL(propertyUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, name);
  return url.href;
}

/** What the events after a sequence name, coalesced. */
export interface CoalescedEvents {
  /** ListingKeys with a Property event, each once, in order of their latest event. */
  propertyKeys: string[];
  /** MediaKeys with a Media event, each once. */
  mediaKeys: string[];
  /** The largest sequence read (undefined when none). */
  lastSequence: number | undefined;
  /** Events read, before coalescing. */
  events: number;
}

const sequenceOf = (row: ResoRecord): number | undefined => {
  const value = row[EVENT_SEQUENCE];
  const sequence = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(sequence) ? sequence : undefined;
};

/** Coalesces events by (ResourceName, ResourceRecordKey); events of other resources (Member, Lookup…) only move the sequence. Pure. */
export function coalesceEvents(rows: readonly ResoRecord[]): CoalescedEvents {
  const latest = new Map<string, { resource: string; key: string; sequence: number }>();
  let lastSequence: number | undefined;
  for (const row of rows) {
    const sequence = sequenceOf(row);
    if (sequence === undefined) continue;
    lastSequence = lastSequence === undefined ? sequence : Math.max(lastSequence, sequence);
    const resource = row.ResourceName;
    const key = row.ResourceRecordKey;
    if (typeof resource !== 'string' || typeof key !== 'string' || key === '') continue;
    const id = `${resource}\n${key}`;
    latest.delete(id);
    latest.set(id, { resource, key, sequence });
  }
  const ordered = [...latest.values()].sort((a, b) => a.sequence - b.sequence);
  return {
    propertyKeys: ordered.filter((event) => event.resource === 'Property').map((event) => event.key),
    mediaKeys: ordered.filter((event) => event.resource === 'Media').map((event) => event.key),
    lastSequence,
    events: rows.length,
  };
}

/**
 * Whether events after `stored` may have been lost: the oldest event the server still holds is
 * past the next one the client would read. Why `+ 1` and not `>`: sequences start at 1 and grow
 * by 1, so a cursor at N expects N + 1 next; compaction can also remove N + 1 (a record changed
 * again later), which this rule takes for a gap too: a needless resync, never a lost change.
 */
export function retentionGap(stored: number, oldestRetained: number | undefined): boolean {
  return oldestRetained !== undefined && oldestRetained > stored + 1;
}

/** The oldest and newest sequence the server holds (undefined when it holds none): two requests of one event each. */
export async function sequenceBounds(source: JsonSource, eventsUrl: string): Promise<{ oldest?: number; newest?: number }> {
  const first = async (direction: 'asc' | 'desc'): Promise<number | undefined> => {
    const body = (await source.getJson(
      odataUrl(eventsUrl, { orderBy: `${EVENT_SEQUENCE} ${direction}`, top: 1, select: [EVENT_SEQUENCE] }),
    )) as { value?: unknown };
    const row = Array.isArray(body.value) ? (body.value[0] as ResoRecord | undefined) : undefined;
    return row === undefined ? undefined : sequenceOf(row);
  };
  const oldest = await first('asc');
  const newest = await first('desc');
  return { ...(oldest === undefined ? {} : { oldest }), ...(newest === undefined ? {} : { newest }) };
}

/** Every Property and Media event after `after`, coalesced; throws FEED_INCOMPLETE when the server stopped short of its count. */
export async function readEventsAfter(
  source: JsonSource,
  options: { eventsUrl: string; after: number; pageSize: number; logger?: Logger },
): Promise<CoalescedEvents> {
  const progress = newProgress();
  const names = EVENT_RESOURCES.map((name) => `ResourceName eq ${odataString(name)}`).join(' or ');
  const rows: ResoRecord[] = [];
  for await (const page of keyedPages(
    source,
    {
      resourceUrl: options.eventsUrl,
      query: { filter: `${EVENT_SEQUENCE} gt ${options.after} and (${names})` },
      order: { keyField: EVENT_SEQUENCE },
      pageSize: options.pageSize,
      ...(options.logger ? { logger: options.logger } : {}),
    },
    progress,
  ))
    rows.push(...page);
  if (!progress.complete) throw pullIncomplete(displaySource(options.eventsUrl), progress.received, progress.expected);
  return coalesceEvents(rows);
}

/** `field in (...)` filters of at most KEYS_PER_REQUEST keys each. */
export function keyChunks(field: string, keys: readonly string[]): string[] {
  const filters: string[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_REQUEST)
    filters.push(
      `${field} in (${keys
        .slice(start, start + KEYS_PER_REQUEST)
        .map(odataString)
        .join(',')})`,
    );
  return filters;
}

/** The ListingKeys whose photos `mediaKeys` are (photos of other resources, and photos gone since, resolve to nothing). */
export async function listingKeysOfMedia(
  source: JsonSource,
  mediaKeys: readonly string[],
  options: { mediaUrl: string; pageSize: number; mediaKey: string; logger?: Logger },
): Promise<string[]> {
  const owners = new Set<string>();
  const { mediaKey } = options;
  for (const filter of keyChunks(mediaKey, mediaKeys)) {
    const progress = newProgress();
    for await (const page of keyedPages(
      source,
      {
        resourceUrl: options.mediaUrl,
        query: { filter, select: [mediaKey, 'ResourceRecordKey'] },
        order: { keyField: mediaKey },
        pageSize: options.pageSize,
        ...(options.logger ? { logger: options.logger } : {}),
      },
      progress,
    )) {
      for (const photo of page) {
        const owner = photo.ResourceRecordKey;
        const resource = photo.ResourceName;
        if (typeof owner === 'string' && (resource === undefined || resource === 'Property')) owners.add(owner);
      }
    }
    if (!progress.complete) throw pullIncomplete(displaySource(options.mediaUrl), progress.received, progress.expected);
  }
  return [...owners];
}
