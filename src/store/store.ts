/**
 * The store: every Redis-backed record of listing-sync behind one object, built over a
 * connection the caller owns (and closes).
 */
import { layoutOf, type RedisClient } from './redis-client.js';
import { FailedKeyStore } from './failed-keys.js';
import { FeedBudget, type FeedBudgetOptions, type FeedBudgetWindows } from './feed-budget.js';
import { FeedMetadataStore } from './feed-metadata.js';
import { FeedShapeStore } from './feed-shapes.js';
import { FeedSourceStore } from './feed-sources.js';
import { JobFinishStore } from './job-finish.js';
import { KeyIndexStore } from './key-index.js';
import { storeKeys, type StoreKeys } from './keys.js';
import { LeaseStore } from './lease.js';
import { LeaseBeats } from './lease-beats.js';
import { LedgerStore } from './ledger.js';
import { PhotoMemory } from './photo-memory.js';
import { RunStore } from './runs.js';
import { ServiceBreakerStore } from './service-breaker.js';
import { WriteClaimStore } from './write-claims.js';

export interface Store {
  redis: RedisClient;
  keys: StoreKeys;
  ledger: LedgerStore;
  claims: WriteClaimStore;
  leases: LeaseStore;
  runs: RunStore;
  failedKeys: FailedKeyStore;
  keyIndex: KeyIndexStore;
  jobFinish: JobFinishStore;
  /** Replication sources: watermark and last run per (chatbot, feed). */
  feedSources: FeedSourceStore;
  /** The service breaker every process shares (open while the service is down for everyone). */
  breaker: ServiceBreakerStore;
  /** The shape of each (chatbot, feed) after its last run allowed to proceed. */
  feedShapes: FeedShapeStore;
  /** What each RESO service root published about itself, kept a day for every process. */
  feedMetadata: FeedMetadataStore;
  /** Hosted photos: what each source photo became, and the listings whose photos are still to fetch. */
  photos: PhotoMemory;
  /** The Redis-held request budget of one feed credential (`id`: a stable hash, never the secret). */
  feedBudget(id: string, windows: FeedBudgetWindows, options?: FeedBudgetOptions): FeedBudget;
}

/** Builds the store over `redis` with keys under `prefix` (the BullMQ prefix), in the layout `redis` needs (keys.ts). */
export function createStore(redis: RedisClient, prefix: string): Store {
  const keys = storeKeys(prefix, layoutOf(redis));
  const runs = new RunStore(redis, keys);
  // One for both scripts: a job's start and its finish share the once-a-second beat.
  const beats = new LeaseBeats();
  return {
    redis,
    keys,
    ledger: new LedgerStore(redis, keys),
    claims: new WriteClaimStore(redis, keys, beats),
    leases: new LeaseStore(redis, keys),
    runs,
    failedKeys: new FailedKeyStore(redis, keys),
    keyIndex: new KeyIndexStore(redis, keys),
    jobFinish: new JobFinishStore(redis, keys, runs, beats),
    feedSources: new FeedSourceStore(redis, keys),
    breaker: new ServiceBreakerStore(redis, keys),
    feedShapes: new FeedShapeStore(redis, keys),
    feedMetadata: new FeedMetadataStore(redis, keys),
    photos: new PhotoMemory(redis, keys),
    feedBudget: (id, windows, options) => new FeedBudget(redis, keys, id, windows, options),
  };
}
