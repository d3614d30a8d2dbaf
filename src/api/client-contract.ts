/**
 * What the rest of the project may call on the service. The undici implementation lives in
 * client.ts; jobs, the snapshot and the CLI depend on this interface only.
 */
import type { ListingUpdate, ListingWrite } from '../domain/listing.js';
import type { ChatbotSettings, DeleteRequest, KnowledgeEdit, ListListingsData, ListRequest, ProjectTable } from './schemas.js';

/** Context carried onto errors so a failure names the listing it was about. */
export interface CallContext {
  /** The listing key (MLSNumber/URL/NewOaks id) the call is about, for error messages. */
  listingKey?: string;
  /** Aborts the request (e.g. worker shutdown). */
  signal?: AbortSignal;
  /**
   * The latest `performance.now()` at which the request may still be sent; past it the client
   * throws SEND_WINDOW_PASSED without sending. A job's create sets it to its claim's fence
   * (jobs/support/send-window.ts).
   */
  sendBy?: number;
}

/** The client's timeouts, which together bound how long one request can be in flight. */
export interface RequestTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

/** The client's timeouts unless configured (LISTING_SYNC_TIMEOUT_*_MS). */
export const DEFAULT_REQUEST_TIMEOUTS: Readonly<RequestTimeouts> = { connectMs: 5000, headersMs: 30_000, bodyMs: 30_000 };

export interface ApiClient {
  /** Endpoint 1. Resolves to Data (1 = success). */
  editChatbot(settings: ChatbotSettings, ctx?: CallContext): Promise<number>;
  /** Endpoint 2. Resolves to Data (true = success). */
  editKnowledge(edit: KnowledgeEdit, ctx?: CallContext): Promise<boolean>;
  /** Endpoint 3. Resolves to the new property's identifier (NewOaks id). */
  createListing(listing: ListingWrite, ctx?: CallContext): Promise<string>;
  /** Endpoint 4. Resolves to the number of records updated (0 = nothing matched Key/KeyType). */
  updateListing(update: ListingUpdate, ctx?: CallContext): Promise<number>;
  /** Endpoint 5. One page. */
  listListings(request: ListRequest, ctx?: CallContext): Promise<ListListingsData>;
  /** Endpoint 6. Resolves to SuccessCount. */
  deleteListings(request: DeleteRequest, ctx?: CallContext): Promise<number>;
  /** Endpoint 7. */
  listTables(randomCode: string, ctx?: CallContext): Promise<ProjectTable[]>;
  /** Releases the connection pool. */
  close(): Promise<void>;
}
