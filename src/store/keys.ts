import type { SyncKeyType } from '../domain/listing.js';

/**
 * Redis key layout of listing-sync's own records. Everything lives under the BullMQ prefix
 * (`LISTING_SYNC_PREFIX`, default `listing-sync`) followed by `:ls:`, so one prefix isolates a
 * whole installation (and a test) and BullMQ's own keys (`{prefix}:{queue}:…`) never collide:
 *
 * | key                                   | type | holds                                                   |
 * |---------------------------------------|------|---------------------------------------------------------|
 * | `{p}:ls:ledger:{chatbot}`             | hash | MLSNumber → `runId\twrittenAt\thash\tremoteId`          |
 * | `{p}:ls:tomb:{chatbot}`               | hash | MLSNumber → runId of the run that deleted it            |
 * | `{p}:ls:failed:{chatbot}`             | hash | MLSNumber → JSON FailedKey (last final failure)         |
 * | `{p}:ls:claims:{chatbot}`             | hash | MLSNumber → `jobId\texpiresAt\tstate` (write in flight) |
 * | `{p}:ls:{kind}-url:{chatbot}`         | hash | the same four for URL keys (ledger-url, tomb-url, …)    |
 * | `{p}:ls:lease:{chatbot}`              | hash | the run holding the chatbot: runId, holder, since, beat |
 * | `{p}:ls:runs:open`                    | zset | runIds not final yet (the reconciler's work list)       |
 * | `{p}:ls:retention-lock`               | str  | the process applying retention now (SET NX PX)          |
 * | `{p}:ls:runs`                         | zset | runId scored by startedAt (all chatbots)                |
 * | `{p}:ls:runs:bot:{chatbot}`           | zset | runId scored by startedAt (one chatbot)                 |
 * | `{p}:ls:run:{runId}`                  | hash | run record fields, `c:{outcome}` counts, `j:*` job tallies |
 * | `{p}:ls:run:{runId}:outcomes`         | hash | jobId → `outcome\tweight` (the job's final outcome)     |
 * | `{p}:ls:run:{runId}:attempts`         | hash | jobId → highest attempt number seen                     |
 * | `{p}:ls:run:{runId}:jobs`             | list | job ids of the run, in enqueue order                    |
 * | `{p}:ls:run:{runId}:rejected`         | list | JSON rejected feed rows (kept whole for the CSV export) |
 * | `{p}:ls:keyidx:{listing key}`         | zset | JSON {chatbot, runId, jobId} scored by time             |
 * | `{p}:ls:calls`                        | hash | service-call counters of every process (call-metrics.ts) |
 * | `{p}:ls:budget:{{id}}:req`            | zset | a feed budget's request times, µs (feed-budget.ts)      |
 * | `{p}:ls:budget:{{id}}:bytes`          | hash | minute bucket → response bytes (feed-budget.ts)         |
 * | `{p}:ls:source:{{chatbot}}:{feedId}`  | hash | a replication source: watermark, last run, totals       |
 * | `{p}:ls:sources`                      | set  | `chatbot\tfeedId` of every replication source          |
 *
 * Why a tombstone hash beside the ledger: a delete removes the ledger entry, yet an older run's
 * job must still see that a newer run touched the key (never resurrect a deleted listing).
 *
 * Why a ledger per key type: an MLS number and a URL are different names for a listing; one
 * `--key-type URL` run must neither count towards the MLSNumber guard's base nor make an
 * MLSNumber run believe it manages keys it never wrote. MLSNumber keeps the original key names,
 * so ledgers written before the split stay where they were.
 *
 * Why `{{…}}` (a literal Redis Cluster hash tag) in the budget and source keys: each of their
 * scripts then touches one slot (a budget's two keys; one chatbot's sources), so a move to Redis
 * Cluster needs no new layout. A prefix with its own tag (`{ls}`) wins and keeps them in one slot.
 */
export interface StoreKeys {
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
  run(runId: string): string;
  runOutcomes(runId: string): string;
  runAttempts(runId: string): string;
  runJobs(runId: string): string;
  runRejected(runId: string): string;
  keyIndex(listingKey: string): string;
  callMetrics(): string;
  /** Request times of a feed request budget (`budgetId`: a stable hash, never a secret). */
  feedBudgetRequests(budgetId: string): string;
  /** Response bytes of a feed request budget, per minute bucket. */
  feedBudgetBytes(budgetId: string): string;
  /** One (chatbot, feed) replication source. */
  feedSource(chatbot: string, feedId: string): string;
  /** Index of every replication source, so listing them needs no SCAN. */
  feedSources(): string;
}

export function storeKeys(prefix: string): StoreKeys {
  const base = `${prefix}:ls`;
  const perKeyType = (kind: string) => (chatbot: string, keyType: SyncKeyType) =>
    `${base}:${kind}${keyType === 'URL' ? '-url' : ''}:${chatbot}`;
  return {
    ledger: perKeyType('ledger'),
    tombstones: perKeyType('tomb'),
    failed: perKeyType('failed'),
    claims: perKeyType('claims'),
    lease: (chatbot) => `${base}:lease:${chatbot}`,
    runsOpen: () => `${base}:runs:open`,
    retentionLock: () => `${base}:retention-lock`,
    runsAll: () => `${base}:runs`,
    runsOfChatbot: (chatbot) => `${base}:runs:bot:${chatbot}`,
    run: (runId) => `${base}:run:${runId}`,
    runOutcomes: (runId) => `${base}:run:${runId}:outcomes`,
    runAttempts: (runId) => `${base}:run:${runId}:attempts`,
    runJobs: (runId) => `${base}:run:${runId}:jobs`,
    runRejected: (runId) => `${base}:run:${runId}:rejected`,
    keyIndex: (listingKey) => `${base}:keyidx:${listingKey}`,
    callMetrics: () => `${base}:calls`,
    feedBudgetRequests: (budgetId) => `${base}:budget:{${budgetId}}:req`,
    feedBudgetBytes: (budgetId) => `${base}:budget:{${budgetId}}:bytes`,
    feedSource: (chatbot, feedId) => `${base}:source:{${chatbot}}:${feedId}`,
    feedSources: () => `${base}:sources`,
  };
}
