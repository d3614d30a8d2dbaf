import type { SyncKeyType } from '../domain/listing.js';

/** Where the keys live: one Redis (the original names), or a Redis Cluster (each chatbot's keys under one hash tag). */
export type KeyLayout = 'single' | 'cluster';

/**
 * Redis key layout of listing-sync's own records. Everything lives under the BullMQ prefix
 * (`LISTING_SYNC_PREFIX`, default `listing-sync`) followed by `:ls:`, so one prefix isolates a
 * whole installation (and a test) and BullMQ's own keys (`{prefix}:{queue}:…`) never collide:
 *
 * | key                                   | type | holds                                                   |
 * |---------------------------------------|------|---------------------------------------------------------|
 * | `{p}:ls:ledger:{chatbot}`             | hash | MLSNumber → `runId\twrittenAt\thash.digests\tremoteId`  |
 * | `{p}:ls:tomb:{chatbot}`               | hash | MLSNumber → runId of the run that deleted it            |
 * | `{p}:ls:failed:{chatbot}`             | hash | MLSNumber → JSON FailedKey (last final failure)         |
 * | `{p}:ls:claims:{chatbot}`             | hash | MLSNumber → `jobId\texpiresAt\tstate` (write in flight) |
 * | `{p}:ls:{kind}-url:{chatbot}`         | hash | the same four for URL keys (ledger-url, tomb-url, …)    |
 * | `{p}:ls:lease:{chatbot}`              | hash | the run holding the chatbot: runId, holder, since, beat |
 * | `{p}:ls:runs:open`                    | zset | runIds not final yet (the reconciler's work list)       |
 * | `{p}:ls:retention-lock`               | str  | the process applying retention now (SET NX PX)          |
 * | `{p}:ls:runs`                         | zset | runId scored by startedAt (all chatbots)                |
 * | `{p}:ls:runs:bot:{chatbot}`           | zset | runId scored by startedAt (one chatbot)                 |
 * | `{p}:ls:run-chatbot`                  | hash | runId → chatbot (cluster layout: where a run's keys are) |
 * | `{p}:ls:run:{runId}`                  | hash | run record fields, `c:{outcome}` counts, `j:*` job tallies |
 * | `{p}:ls:run:{runId}:outcomes`         | hash | jobId → `outcome\tweight` (the job's final outcome)     |
 * | `{p}:ls:run:{runId}:attempts`         | hash | jobId → highest attempt number seen                     |
 * | `{p}:ls:run:{runId}:jobs`             | list | job ids of the run, in enqueue order                    |
 * | `{p}:ls:run:{runId}:rejected`         | list | JSON rejected feed rows (kept whole for the CSV export) |
 * | `{p}:ls:keytouch:{chatbot}:{day}`     | zset | `key\tat\trunId\tjobId`, all scored 0 (key-index.ts)   |
 * | `{p}:ls:keytouch-days`                | zset | `day\tchatbot` of every keytouch set, scored by day     |
 * | `{p}:ls:keyidx:{listing key}`         | zset | JSON {chatbot, runId, jobId} by time (former key index) |
 * | `{p}:ls:calls`                        | hash | service-call counters of every process (call-metrics.ts) |
 * | `{p}:ls:media`                        | hash | photo download counters of every process (media-metrics.ts) |
 * | `{p}:ls:budget:{{id}}:req`            | zset | a feed budget's request times, µs (feed-budget.ts)      |
 * | `{p}:ls:budget:{{id}}:bytes`          | hash | minute bucket → response bytes (feed-budget.ts)         |
 * | `{p}:ls:source:{{chatbot}}:{feedId}`  | hash | a replication source: watermark, last run, totals       |
 * | `{p}:ls:sources`                      | set  | `chatbot\tfeedId` of every replication source          |
 * | `{p}:ls:{request-permits}`            | hash | the request permit pool: `born`, `h:{holder}` → lease   |
 * | `{p}:ls:{service-breaker}`            | hash | the service breaker: open, since, reason, streak, probe  |
 * | `{p}:ls:shape:{chatbot}:{sourceId}`   | str  | JSON shape of a feed after its last allowed run (feed-shapes.ts) |
 * | `{p}:ls:metadata:{rootId}`            | str  | JSON `$metadata` and lookups of a RESO service root, a day (feed-metadata.ts) |
 * | `{p}:ls:fleet`                        | str  | JSON of the applied fleet.yaml (fleet-record-store.ts)  |
 *
 * Why a tombstone hash beside the ledger: a delete removes the ledger entry, yet an older run's
 * job must still see that a newer run touched the key (never resurrect a deleted listing).
 *
 * Why a ledger per key type: an MLS number and a URL are different names for a listing; one
 * `--key-type URL` run must neither count towards the MLSNumber guard's base nor make an
 * MLSNumber run believe it manages keys it never wrote. MLSNumber keeps the original key names,
 * so ledgers written before the split stay where they were.
 *
 * Why `{{…}}` (a literal Redis Cluster hash tag) in the budget, source, permit and breaker keys: each of their
 * scripts then touches one slot (a budget's two keys; one chatbot's sources) in both layouts.
 *
 * The cluster layout (`KeyLayout` 'cluster', chosen when listing-sync runs on a Redis Cluster):
 * every key of one chatbot carries the chatbot as a hash tag, its runs' keys included
 * (`{p}:ls:ledger:{S}`, `{p}:ls:lease:{S}`, `{p}:ls:run:{S}:{runId}`, …), so each script and
 * MULTI touches one slot while many chatbots spread over the masters. Keys of the whole
 * installation (`runs`, `runs:open`, `calls`, `media`, `retention-lock`, `sources`, `keytouch-days`, `keyidx:*`, and
 * `run-chatbot`, the runId → chatbot map that finds a run's slot from its id) are only ever read
 * or written by single-key commands. The single-Redis layout keeps the original names, so
 * ledgers and runs written before the cluster layout existed stay where they are.
 */
export interface StoreKeys {
  readonly layout: KeyLayout;
  ledger(chatbot: string, keyType: SyncKeyType): string;
  tombstones(chatbot: string, keyType: SyncKeyType): string;
  failed(chatbot: string, keyType: SyncKeyType): string;
  /** Keys with a create or update in flight, so that two jobs never write one key at once. */
  claims(chatbot: string, keyType: SyncKeyType): string;
  /** The lease: which run holds the chatbot (one sync per chatbot at a time). */
  lease(chatbot: string): string;
  runsOpen(): string;
  retentionLock(): string;
  runsAll(): string;
  runsOfChatbot(chatbot: string): string;
  /** runId → chatbot (cluster layout only: a run's keys live in its chatbot's slot). */
  runChatbots(): string;
  run(chatbot: string, runId: string): string;
  runOutcomes(chatbot: string, runId: string): string;
  runAttempts(chatbot: string, runId: string): string;
  runJobs(chatbot: string, runId: string): string;
  runRejected(chatbot: string, runId: string): string;
  /** The key index before the day sets: one zset per listing key (read and trimmed until retention empties it). */
  keyIndex(listingKey: string): string;
  /** The touches of one chatbot's listing keys on one UTC day (key-index.ts). */
  keyTouches(chatbot: string, day: number): string;
  /** Every keyTouches set, as `day\tchatbot` scored by day. */
  keyTouchDays(): string;
  callMetrics(): string;
  /** Photo download counters of every process (media-metrics.ts). */
  mediaMetrics(): string;
  /** Request times of a feed request budget (`budgetId`: a stable hash, never a secret). */
  feedBudgetRequests(budgetId: string): string;
  /** Response bytes of a feed request budget, per minute bucket. */
  feedBudgetBytes(budgetId: string): string;
  /** One (chatbot, feed) replication source. */
  feedSource(chatbot: string, feedId: string): string;
  /** Index of every replication source, so listing them needs no SCAN. */
  feedSources(): string;
  /** The photos a feed source's downloads became: photo identity → object key (photo-memory.ts). */
  photoMemory(feedId: string): string;
  /** ListingKeys of a (chatbot, feed) whose photos were not all fetched: read again by the next run. */
  photosPending(chatbot: string, feedId: string): string;
  /** The objects each listing of a chatbot shows: ListingKey → object keys, comma-joined (media gc keeps these). */
  photoRefs(chatbot: string): string;
  /** What every photoRefs hash starts with, for SCAN. */
  photoRefsHead(): string;
  /** What every photoMemory hash starts with, for SCAN. */
  photoMemoryHead(): string;
  /** Objects found unreferenced by media gc: object key → when first found so (epoch ms). */
  photoOrphans(): string;
  /** The request permit pool every worker process leases from (permit-pool.ts); one key, its own hash tag. */
  requestPermits(): string;
  /** The service breaker every process shares (service-breaker.ts); one key, its own hash tag. */
  serviceBreaker(): string;
  /** The shape a (chatbot, feed) had after its last run allowed to proceed (`sourceId`: a stable hash). */
  feedShape(chatbot: string, sourceId: string): string;
  /** What a RESO service root published (`rootId`: a stable hash of its URL without credentials). */
  feedMetadata(rootId: string): string;
  /** What every per-chatbot key of one kind starts with, for SCAN (`runsOfChatbot`, `tombstones`). */
  chatbotKeyHead(kind: 'runsOfChatbot' | 'tombstones', keyType?: SyncKeyType): string;
  /** The chatbot a key found by SCAN under `head` belongs to. */
  chatbotOfKey(head: string, key: string): string;
}

/** Builds the key names under `prefix` in the given layout (see the table above). */
export function storeKeys(prefix: string, layout: KeyLayout = 'single'): StoreKeys {
  const base = `${prefix}:ls`;
  const cluster = layout === 'cluster';
  // Why a tag only on a cluster: on one Redis the braces would rename every existing key.
  const tag = (chatbot: string): string => (cluster ? `{${chatbot}}` : chatbot);
  const kindName = (kind: string, keyType: SyncKeyType): string => `${kind}${keyType === 'URL' ? '-url' : ''}`;
  const perKeyType = (kind: string) => (chatbot: string, keyType: SyncKeyType) => `${base}:${kindName(kind, keyType)}:${tag(chatbot)}`;
  const runKey = (chatbot: string, runId: string): string => (cluster ? `${base}:run:${tag(chatbot)}:${runId}` : `${base}:run:${runId}`);
  const heads = {
    runsOfChatbot: () => `${base}:runs:bot:`,
    tombstones: (keyType: SyncKeyType) => `${base}:${kindName('tomb', keyType)}:`,
  };
  return {
    layout,
    ledger: perKeyType('ledger'),
    tombstones: perKeyType('tomb'),
    failed: perKeyType('failed'),
    claims: perKeyType('claims'),
    lease: (chatbot) => `${base}:lease:${tag(chatbot)}`,
    runsOpen: () => `${base}:runs:open`,
    retentionLock: () => `${base}:retention-lock`,
    runsAll: () => `${base}:runs`,
    runsOfChatbot: (chatbot) => `${heads.runsOfChatbot()}${tag(chatbot)}`,
    runChatbots: () => `${base}:run-chatbot`,
    run: runKey,
    runOutcomes: (chatbot, runId) => `${runKey(chatbot, runId)}:outcomes`,
    runAttempts: (chatbot, runId) => `${runKey(chatbot, runId)}:attempts`,
    runJobs: (chatbot, runId) => `${runKey(chatbot, runId)}:jobs`,
    runRejected: (chatbot, runId) => `${runKey(chatbot, runId)}:rejected`,
    keyIndex: (listingKey) => `${base}:keyidx:${listingKey}`,
    keyTouches: (chatbot, day) => `${base}:keytouch:${tag(chatbot)}:${day}`,
    keyTouchDays: () => `${base}:keytouch-days`,
    callMetrics: () => `${base}:calls`,
    mediaMetrics: () => `${base}:media`,
    feedBudgetRequests: (budgetId) => `${base}:budget:{${budgetId}}:req`,
    feedBudgetBytes: (budgetId) => `${base}:budget:{${budgetId}}:bytes`,
    feedSource: (chatbot, feedId) => `${base}:source:{${chatbot}}:${feedId}`,
    feedSources: () => `${base}:sources`,
    photoMemory: (feedId) => `${base}:photos:{${feedId}}`,
    photosPending: (chatbot, feedId) => `${base}:photos-pending:{${chatbot}}:${feedId}`,
    photoRefs: (chatbot) => `${base}:photo-refs:{${chatbot}}`,
    photoRefsHead: () => `${base}:photo-refs:`,
    photoMemoryHead: () => `${base}:photos:`,
    photoOrphans: () => `${base}:{photo-orphans}`,
    // Why a literal tag in both layouts: the pool's scripts touch this one key; on a cluster the
    // tag names its slot, and on one Redis no earlier key had this name to keep.
    requestPermits: () => `${base}:{request-permits}`,
    serviceBreaker: () => `${base}:{service-breaker}`,
    feedShape: (chatbot, sourceId) => `${base}:shape:${tag(chatbot)}:${sourceId}`,
    feedMetadata: (rootId) => `${base}:metadata:${rootId}`,
    chatbotKeyHead: (kind, keyType = 'MLSNumber') => (kind === 'runsOfChatbot' ? heads.runsOfChatbot() : heads.tombstones(keyType)),
    chatbotOfKey: (head, key) => {
      const rest = key.slice(head.length);
      return cluster && rest.startsWith('{') && rest.endsWith('}') ? rest.slice(1, -1) : rest;
    },
  };
}
