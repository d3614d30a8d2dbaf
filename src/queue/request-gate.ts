/**
 * Caps the service requests in flight from one process at `--concurrency`, while BullMQ runs a
 * few more jobs than that. Why: each job also spends a little time on Redis (ledger probe,
 * outcome script, BullMQ's move to completed and fetch of the next job); with BullMQ concurrency
 * equal to the request limit, a request slot sits idle during that bookkeeping. A few extra
 * active jobs keep every request slot busy (the benchmark's "≥ 0.85 of concurrency/latency"),
 * and this gate keeps the promise that the service never sees more than `limit` at once.
 */
import pLimit from 'p-limit';
import type { ApiClient } from '../api/client-contract.js';

/** BullMQ concurrency for a request limit: about a quarter more, at least one more. */
export function jobConcurrencyFor(requestLimit: number): number {
  return requestLimit + Math.max(1, Math.ceil(requestLimit / 4));
}

/** The same client with at most `limit` calls in flight (close() is not gated). */
export function gateApiClient(api: ApiClient, limit: number): ApiClient {
  const gate = pLimit(limit);
  return {
    editChatbot: (settings, ctx) => gate(() => api.editChatbot(settings, ctx)),
    editKnowledge: (edit, ctx) => gate(() => api.editKnowledge(edit, ctx)),
    createListing: (listing, ctx) => gate(() => api.createListing(listing, ctx)),
    updateListing: (update, ctx) => gate(() => api.updateListing(update, ctx)),
    listListings: (request, ctx) => gate(() => api.listListings(request, ctx)),
    deleteListings: (request, ctx) => gate(() => api.deleteListings(request, ctx)),
    listTables: (randomCode, ctx) => gate(() => api.listTables(randomCode, ctx)),
    close: () => api.close(),
  };
}
