/**
 * The API client with a caller's limit around each call: what job processors are given, so that
 * a process's request limit (its own, or the permits it leased under --global-concurrency) and
 * its hold during an outage (src/queue) apply to every request without jobs knowing of them.
 * The limit is the caller's function; the requests themselves stay this folder's.
 */
import type { ApiClient } from './client-contract.js';

/**
 * Runs a service call when the limit allows it (p-limit's shape). `chatbot`: the chatbot the call
 * is about, when it has one (the service breaker probes its list).
 */
export type RequestGate = <T>(call: () => Promise<T>, chatbot?: string) => Promise<T>;

/** The same client with every call through `gate` (close() is not gated). */
export function gateApiClient(api: ApiClient, gate: RequestGate): ApiClient {
  return {
    editChatbot: (settings, ctx) => gate(() => api.editChatbot(settings, ctx), settings.serialNumber),
    editKnowledge: (edit, ctx) => gate(() => api.editKnowledge(edit, ctx), edit.serialNumber),
    createListing: (listing, ctx) => gate(() => api.createListing(listing, ctx), listing.SerialNumber),
    updateListing: (update, ctx) => gate(() => api.updateListing(update, ctx), update.SerialNumber),
    listListings: (request, ctx) => gate(() => api.listListings(request, ctx), request.SerialNumber),
    deleteListings: (request, ctx) => gate(() => api.deleteListings(request, ctx), request.SerialNumber),
    listTables: (randomCode, ctx) => gate(() => api.listTables(randomCode, ctx)),
    close: () => api.close(),
  };
}
