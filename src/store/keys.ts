/**
 * Redis key layout of listing-sync's own records. Everything lives under the BullMQ prefix
 * (`LISTING_SYNC_PREFIX`, default `listing-sync`) followed by `:ls:`, so one prefix isolates a
 * whole installation (and a test) and BullMQ's own keys (`{prefix}:{queue}:…`) never collide:
 *
 * | key                                   | type | holds                                                   |
 * |---------------------------------------|------|---------------------------------------------------------|
 * | `{p}:ls:ledger:{chatbot}`             | hash | listing key → `runId\twrittenAt\thash\tremoteId`        |
 * | `{p}:ls:tomb:{chatbot}`               | hash | listing key → runId of the run that deleted it          |
 * | `{p}:ls:failed:{chatbot}`             | hash | listing key → JSON FailedKey (last final failure)       |
 * | `{p}:ls:runs`                         | zset | runId scored by startedAt (all chatbots)                |
 * | `{p}:ls:runs:bot:{chatbot}`           | zset | runId scored by startedAt (one chatbot)                 |
 * | `{p}:ls:run:{runId}`                  | hash | run record fields, `c:{outcome}` counts, `j:*` job tallies |
 * | `{p}:ls:run:{runId}:outcomes`         | hash | jobId → `outcome\tweight` (the job's final outcome)     |
 * | `{p}:ls:run:{runId}:attempts`         | hash | jobId → highest attempt number seen                     |
 * | `{p}:ls:run:{runId}:jobs`             | list | job ids of the run, in enqueue order                    |
 * | `{p}:ls:run:{runId}:rejected`         | list | JSON rejected feed rows (kept whole for the CSV export) |
 * | `{p}:ls:keyidx:{listing key}`         | zset | JSON {chatbot, runId, jobId} scored by time             |
 * | `{p}:ls:calls`                        | hash | service-call counters of every process (call-metrics.ts) |
 *
 * Why a tombstone hash beside the ledger: a delete removes the ledger entry, yet an older run's
 * job must still see that a newer run touched the key (never resurrect a deleted listing).
 */
export interface StoreKeys {
  ledger(chatbot: string): string;
  tombstones(chatbot: string): string;
  failed(chatbot: string): string;
  runsAll(): string;
  runsOfChatbot(chatbot: string): string;
  run(runId: string): string;
  runOutcomes(runId: string): string;
  runAttempts(runId: string): string;
  runJobs(runId: string): string;
  runRejected(runId: string): string;
  keyIndex(listingKey: string): string;
  callMetrics(): string;
}

export function storeKeys(prefix: string): StoreKeys {
  const base = `${prefix}:ls`;
  return {
    ledger: (chatbot) => `${base}:ledger:${chatbot}`,
    tombstones: (chatbot) => `${base}:tomb:${chatbot}`,
    failed: (chatbot) => `${base}:failed:${chatbot}`,
    runsAll: () => `${base}:runs`,
    runsOfChatbot: (chatbot) => `${base}:runs:bot:${chatbot}`,
    run: (runId) => `${base}:run:${runId}`,
    runOutcomes: (runId) => `${base}:run:${runId}:outcomes`,
    runAttempts: (runId) => `${base}:run:${runId}:attempts`,
    runJobs: (runId) => `${base}:run:${runId}:jobs`,
    runRejected: (runId) => `${base}:run:${runId}:rejected`,
    keyIndex: (listingKey) => `${base}:keyidx:${listingKey}`,
    callMetrics: () => `${base}:calls`,
  };
}
