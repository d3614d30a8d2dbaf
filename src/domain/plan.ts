/**
 * The value the planner returns and the queue executes (plan, then execute).
 */
import type { ListingFields, SyncKeyType } from './listing.js';
import type { PlannedWrites } from './planned-writes-list.js';

export const SYNC_MODES = ['mirror', 'upsert'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];
export const DELETE_SCOPES = ['managed', 'all'] as const;
export type DeleteScope = (typeof DELETE_SCOPES)[number];

/**
 * One field that differs between the remote and the feed. `notReadBack`: a field the service's
 * read did not show, found changed against what this tool last sent (the ledger's field
 * digests); its old value is unknown, so `from` is absent.
 */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
  notReadBack?: true;
}

/**
 * A listing to create. Its content hash (what the ledger records once it is written) is taken when
 * its job is built (jobs/support/listing-job-specs.ts), not here. Why: a create is compared with nothing, so the
 * plan does not need it, and hashing every new listing of a migration held back the first write
 * by the time it took (~30 ms for 6,000 listings) while the guard waited for the whole plan.
 */
export interface PlannedCreate {
  key: string;
  listing: ListingFields;
}

export interface PlannedUpdate {
  key: string;
  listing: ListingFields;
  /** What the ledger records once it is written: content hash and field digests (hash.ts recordedHash). */
  hash: string;
  /** The service-issued id of the remote listing being updated, when known. */
  remoteId?: string;
  changes: FieldChange[];
}

export interface PlannedDelete {
  /** The key the delete is sent with (the listing key, or the NewOaks id for extra copies). */
  key: string;
  keyType: 'MLSNumber' | 'URL' | 'NewOaks';
  /** Why: 'gone' (not in the feed any more) or 'duplicate' (an extra remote copy of one key). */
  reason: 'gone' | 'duplicate';
  /** The listing key this delete belongs to (equal to `key` unless reason is 'duplicate'). */
  listingKey: string;
}

/** Why a plan makes no deletes although it would have: rows too broken to read their key. */
export interface DeletesWithheld {
  /** Deletes the plan would have made ('gone' and 'duplicate' clean-up): none is made. */
  deletes: number;
  /** Rejected rows whose key could not be read. */
  rows: number;
  /** Their lines (record index for JSON), the first MAX_WITHHELD_LINES of them. */
  lines: number[];
}

/** Lines kept in DeletesWithheld: enough to find the damage; every row is in the rejected rows. */
export const MAX_WITHHELD_LINES = 20;

export interface Plan {
  chatbot: string;
  keyType: SyncKeyType;
  mode: SyncMode;
  deleteScope: DeleteScope;
  /** In memory, or spooled to a file by a sync (planned-writes.ts): count them, iterate them. */
  creates: PlannedWrites<PlannedCreate>;
  updates: PlannedWrites<PlannedUpdate>;
  deletes: PlannedDelete[];
  /** Keys present on both sides and equal. */
  unchanged: number;
  /** Remote listings left alone because their feed row was rejected (never deleted for it). */
  held?: number;
  /** Set when the feed had rows too broken to read their key: then `deletes` is empty. */
  deletesWithheld?: DeletesWithheld;
}

/** A plan whose creates and updates are arrays in memory (planSync, a planner given no collector). */
export interface PlanInMemory extends Plan {
  creates: PlannedCreate[];
  updates: PlannedUpdate[];
}
