/** SyncStores (what runSync reads and writes in Redis) over the store. */
import type { SyncSummary } from '../store/run-summary.js';
import type { Store } from '../store/store.js';
import { runFromOutcome } from './run-records.js';
import type { SyncStores } from './sync-deps.js';

export function syncStores(store: Store): SyncStores {
  return {
    readLedger: (chatbot, index, positions) => store.ledger.readLedgerByPosition(chatbot, index, positions),
    failedKeys: async (chatbot, keyType) => new Set((await store.failedKeys.failedKeys(chatbot, keyType)).keys()),
    // The guard's baseline: how many rows the feed had when the chatbot last synced completely.
    lastSuccessfulFeedRows: async (chatbot) => (await store.runs.lastSuccessfulRun(chatbot))?.summary?.feed?.rows,
    saveRun: (outcome) => store.runs.createRun(runFromOutcome(outcome)),
    recordReplication: async (summary, replication) => {
      const withReplication: SyncSummary & { replication: typeof replication } = { ...summary, replication };
      await store.runs.updateRun(summary.runId, { summary: withReplication });
    },
    feedShapes: store.feedShapes,
    adopt: (chatbot, keyType, runId, listings) =>
      store.ledger.adopt(
        chatbot,
        keyType,
        listings.map(({ key, hash, remoteId }) => ({ key, entry: { hash, remoteId, writtenAt: Date.now(), runId } })),
      ),
  };
}
