/**
 * What the sync use case needs from the outside (runSync's dependencies): the service, the
 * records in Redis, the queue its jobs go to, progress callbacks, the lease and the replication's wiring.
 */
import type { DisplayPolicy } from '../domain/display-policy/policy.js';
import type { UrlCopies } from '../feed/url-copies.js';
import type { ApiClient } from '../api/client-contract.js';
import type { RetryTable } from '../api/retry-policy.js';
import type { PlanningLedger } from '../domain/planning-ledger.js';
import type { RemoteKeyIndex } from '../domain/snapshot/remote-key-index.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { PlanResult } from '../domain/planner.js';
import type { FeedOptions } from '../feed/open-feed.js';
import type { FeedPhotos } from '../feed/media/hosted-feed.js';
import type { Logger } from '../runtime/logger.js';
import type { EnqueueOptions } from '../queue/enqueue.js';
import type { SyncSummary } from '../store/run-summary.js';
import type { FeedShapeRecords } from './feed-shape-check.js';
import type { SyncLease } from './hold-chatbot.js';
import type { PlanSpool } from './plan-spool.js';
import type { ReplicationDeps } from './replication.js';
import type { RejectedRow, SyncOutcome } from './summary.js';
import type { SyncRequest } from './sync-request.js';

/** Redis-backed records the sync reads and writes (over the store: sync-stores.ts). */
export interface SyncStores {
  /** The ledger by remote position (read after the snapshot, with its key index). */
  readLedger(chatbot: string, index: RemoteKeyIndex, positions: number): Promise<PlanningLedger>;
  failedKeys(chatbot: string, keyType: SyncKeyType): Promise<ReadonlySet<string>>;
  lastSuccessfulFeedRows(chatbot: string): Promise<number | undefined>;
  /** Saves the run record (summary, rejected rows) before its jobs are enqueued. */
  saveRun(outcome: SyncOutcome): Promise<void>;
  /**
   * Adds how a replicating run's pull ended to its stored summary (shown on its run page; a budget
   * halt makes the chatbot's health `budget`, src/sync/health). Optional: tests of the planning alone omit it.
   */
  recordReplication?(summary: SyncSummary, replication: NonNullable<SyncOutcome['replication']>): Promise<void>;
  /** Records unchanged, not yet managed listings in the ledger as adopted by `runId`. */
  adopt(chatbot: string, keyType: SyncKeyType, runId: string, listings: PlanResult['adopt']): Promise<void>;
  /** The shape of each (chatbot, feed) after its last run allowed to proceed (feed-shape-check.ts). */
  feedShapes: FeedShapeRecords;
}

export interface SyncProgress {
  feed?: (rowsRead: number, bytes: number, totalBytes: number | undefined) => void;
  remote?: (read: number, total: number) => void;
  /** The plan exists and the guard let it through: told before its jobs are enqueued (and worked). */
  planned?: (summary: SyncSummary) => void;
}

export interface SyncDeps {
  api: ApiClient;
  /** The configured retry table (config.api.retryTable): which failed snapshot page reads are tried again. */
  retryTable: RetryTable;
  stores: SyncStores;
  /** Where and how the plan's jobs are added (src/queue/enqueue.ts): the writes queue, the store, the job settings, the route. */
  enqueue: EnqueueOptions;
  logger: Logger;
  now(): number;
  /** The instant the display policy's dated rules are judged at (default now()): a test's clock (LISTING_SYNC_NOW). */
  policyNow?(): number;
  /** Reads and checks a display policy file (YAML); throws one UsageError line per problem (file:line:column). */
  loadDisplayPolicy?(file: string): Promise<DisplayPolicy>;
  newRunId(): string;
  progress?: SyncProgress;
  /** Stops the sync (SIGINT/SIGTERM): the feed stops being read, between rows and between pages. */
  signal?: AbortSignal;
  /**
   * Caps on a feed URL (LISTING_SYNC_FEED_MAX_PAGES / _BYTES) and the feed's overall deadline
   * (--feed-timeout); open-feed.ts DEFAULT_FEED_LIMITS when absent.
   */
  feedLimits?: Pick<FeedOptions, 'maxPages' | 'maxBytes'> & { deadlineMs?: number };
  /** A fan-out's URL copies (fleet run of a URL source): each URL is fetched once for every chatbot. */
  urlCopies?: UrlCopies;
  /**
   * Opens the file the plan's creates and updates are spooled to (plan-spool.ts), first thing:
   * a temp directory that cannot hold it stops the sync before anything is read or sent. Absent
   * (tests of the planning alone): the plan is held in memory.
   */
  openPlanSpool?: () => PlanSpool;
  /**
   * Writes the `--report` from the whole outcome, once the sync is decided (enqueued, refused or
   * dry), while the spooled plan can still be read: runSync's result carries no plan.
   */
  report?: (outcome: SyncOutcome) => Promise<void>;
  /** Given every rejected row as it is read (the --report file streams them): the outcome keeps only the first ones. */
  onRejected?: (row: RejectedRow) => void;
  /** One sync per chatbot: without it (tests of the planning alone) nothing is held. */
  lease?: SyncLease;
  /**
   * Builds the RESO pull and the source records of a `--replicate` request (the CLI's sync and a
   * worker's scheduled sync wire it the same way); a request that replicates without it fails.
   */
  replicationFor?: (request: SyncRequest, signal?: AbortSignal) => ReplicationDeps;
  /**
   * The photo hosting of a file feed's sync (a request that does not replicate) with a media store;
   * undefined (or absent) leaves Images the feed's own URLs.
   */
  photosFor?: (request: SyncRequest, signal?: AbortSignal) => FeedPhotos | undefined;
}
