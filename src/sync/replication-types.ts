/**
 * The types a replicating sync passes between its timestamp side (replication.ts) and its
 * EntityEvent side (event-replication.ts): declared apart so neither imports the other's.
 */
import type { ReplicatedFeed } from '../feed/reso-api/replicated-feed.js';
import type { EventPull } from '../feed/reso-api/event-pull.js';
import type { ReplicationRun } from '../feed/reso-api/replicate.js';
import type { SourceMetadata } from '../feed/reso-api/source-metadata.js';
import type { EventMode, FeedSourceStore } from '../store/feed-sources.js';
import type { PhotoHosting } from '../feed/media/photo-hosting.js';

/** What the composition root gives a replicating sync: the pull (auth, budget and paging wired) and the source records. */
export interface ReplicationDeps {
  /**
   * Starts a pull since `watermark` (everything when absent), or a key sweep of `keyFields` (default
   * the reso profile's), by the field names and lookups of the server's metadata; `recheckKeys`:
   * listings an earlier run left short of photos, read again by key.
   */
  start(
    options: { watermark?: string; sweep: boolean; keyFields?: readonly string[]; recheckKeys?: readonly string[] } & SourceMetadata,
  ): ReplicationRun;
  /** Set with a media store: hosts each page's photos before it is mapped (photo-hosting.ts). */
  photos?: PhotoDeps;
  /** What the server publishes about itself (kept a day per service root in Redis) and what reading it cost this run. */
  metadata?(): Promise<MetadataRead>;
  sources: Pick<FeedSourceStore, 'show' | 'advanceWatermark' | 'recordRun'>;
  /** The source id of (chatbot, feed): replicationFeedId(feed URL). */
  feedId: string;
  /** Set for `--events` requests: the EntityEvent reads (event-replication.ts). */
  events?: EventDeps;
  /**
   * A fleet fan-out's one event read of the source (fleet-events.ts), replayed afresh to each
   * chatbot instead of the chatbot reading its own: absent for `sync --replicate --events`.
   */
  sharedEvents?: () => Promise<EventRead>;
}

/** The hosted-photos side of a replication: the hosting step and the listings still missing photos. */
export interface PhotoDeps {
  hosting: PhotoHosting;
  /** ListingKeys whose photos were not all hosted by an earlier run (read again by this one). */
  pending(): Promise<string[]>;
  /** The same for another chatbot of the source (a fleet's shared read asks for each of its chatbots). */
  pendingOf(chatbot: string): Promise<string[]>;
  /** The public address hosted Images start with (their object keys follow it). */
  baseUrl: string;
  /** Records the objects each listing shows, keyed by the chatbot's listing key (referenced-feed.ts). */
  reference(listings: ReadonlyMap<string, readonly string[]>): Promise<void>;
  /** Forgets what listings show, by the chatbot's listing key (their deletes were queued). */
  forget(listingKeys: readonly string[]): Promise<void>;
  /** Releases the media store. */
  close(): Promise<void>;
}

/** A replication under way. */
export interface StartedReplication {
  feed: ReplicatedFeed;
  /** Keys of a completed sweep; undefined without --sweep or when the sweep did not complete. */
  sweptKeys?: ReadonlySet<string>;
  /** Set with --sweep: whether the sweep completed, and what stopped it short (the budget, a server that stopped serving). */
  sweep?: { complete: boolean; requests: number; bytes: number; halt?: Error };
  /** `--events`: whether this run reads events or resyncs, and the sequence it stores at the end. */
  events?: EventRun;
  /** What reading `$metadata` cost this run (0 when it was kept from an earlier one). */
  metadataSpent?: { requests: number; bytes: number };
  /** Set when the run hosts photos. */
  photos?: PhotoHosting;
}

/** `metadata` undefined: the server publishes no `$metadata` (the Data Dictionary names are used). */
export interface MetadataRead extends SourceMetadata {
  /** Requests and bytes this run spent reading it: 0 when it was kept from an earlier run. */
  requests: number;
  bytes: number;
}

/**
 * What a replicating run has under way, filled in as it starts: a run that fails records what the
 * sweep and the pull had spent by then (their requests reached the MLS and count against its budget).
 */
export interface ReplicationProgress {
  /** The key sweep, once started (also when it then failed). */
  sweepRun?: ReplicationRun;
  /** The pull, once the sweep (if any) is done. */
  started?: StartedReplication;
  /** What reading the server's `$metadata` cost this run, once read. */
  metadataSpent?: { requests: number; bytes: number };
}

/** What the wiring gives an `--events` run besides the timestamp pull. */
export interface EventDeps {
  /** The oldest and newest sequence the server holds, and what asking cost. */
  bounds(): Promise<{ oldest?: number; newest?: number; requests: number; bytes: number }>;
  /**
   * The events after `after`, coalesced, and the listings they name (by the server's field names and
   * lookups); `recheck`: ListingKeys read with them though no event names them (photos still pending).
   */
  pull(after: number, known: SourceMetadata, recheck?: readonly string[]): Promise<EventPull>;
  /** Stores the sequence (forward only) and the mode, once the run's jobs are queued. */
  advance(chatbot: string, feedId: string, sequence: number, mode: EventMode): Promise<unknown>;
}

/**
 * What the event log said for a run: resync in full (and why, and the sequence to store after it),
 * or the events read after `from`. `requests` and `bytes`: what asking for the bounds cost.
 */
export type EventRead = { requests: number; bytes: number } & (
  { mode: 'resync'; reason: 'first run' | 'retention gap'; sequence: number } | { mode: 'events'; from: number; pulled: EventPull }
);

/** How an `--events` run reads the source, and what it stores at the end. */
export interface EventRun {
  mode: EventMode;
  /** Why a resync: the source's first run, or events lost to retention. */
  reason?: 'first run' | 'retention gap';
  /** The sequence stored after the jobs are queued; undefined when nothing may be stored (a halt). */
  sequence?: number;
  /** Sequence before the run (undefined on a first run). */
  after?: number;
  /** Requests and bytes spent outside the pull and the sweep (the sequence bounds). */
  requests: number;
  bytes: number;
  /** Events read and listings they named (event mode only). */
  events?: number;
  listings?: number;
  /** Listings found gone (event mode only). */
  gone?: number;
}
