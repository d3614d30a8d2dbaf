/**
 * One row of the ledger: what listing-sync last wrote (or adopted) for a chatbot + key.
 * Stored in Redis by src/store/ledger.ts; read by the planner as a plain Map.
 */
export interface LedgerEntry {
  /** Content hash of the listing as last written (domain/hash.ts). */
  hash: string;
  /** Service-issued id, when known. */
  remoteId?: string;
  /** Epoch ms of the write. */
  writtenAt: number;
  /** The run whose job wrote it; a job of an older run never overwrites a newer one. */
  runId: string;
}

/** Ledger entries of one chatbot by listing key. */
export type Ledger = ReadonlyMap<string, LedgerEntry>;
