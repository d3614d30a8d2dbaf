/**
 * The planner: feed + remote snapshot + ledger → what to create, update and delete. Pure and
 * deterministic (same input, same plan, same order), so a dry run shows exactly what a real run does.
 */
import { diffListing, DEFAULT_VOLATILE_FIELDS } from './compare.js';
import { listingHash } from './hash.js';
import type { Ledger, LedgerEntry } from './ledger-entry.js';
import type { ListingFields, SyncKeyType } from './listing.js';
import type { DeleteScope, FieldChange, Plan, PlannedCreate, PlannedDelete, PlannedUpdate, SyncMode } from './plan.js';
import type { RemoteListing } from './remote.js';
import { compareIds, compareText, indexRemote } from './remote-index.js';

export interface PlanInput {
  chatbot: string;
  keyType: SyncKeyType;
  /** 'mirror' deletes what the feed no longer has; 'upsert' never deletes. */
  mode: SyncMode;
  /** 'managed': delete only keys in the ledger; 'all': any remote listing. */
  deleteScope: DeleteScope;
  /** Key → listing, already de-duplicated by the importer. */
  feed: ReadonlyMap<string, ListingFields>;
  /** May hold several listings with one key, and listings with an empty key. */
  remote: readonly RemoteListing[];
  ledger: Ledger;
  /** Defaults to DEFAULT_VOLATILE_FIELDS. */
  volatileFields?: readonly string[];
  /** Keys whose jobs failed finally in an earlier run: planned again even when they look unchanged. */
  retryKeys?: ReadonlySet<string>;
}

export interface PlanResult {
  plan: Plan;
  /** Keys held by more than one remote listing, ids oldest first (the first is the one kept). */
  remoteDuplicates: Array<{ key: string; ids: string[] }>;
  /** Remote ids with an empty key: never deleted by key, reported instead. */
  remoteUnkeyed: string[];
}

/** Change entry of an update caused by the ledger hash, for fields the read shape does not show. */
export const HIDDEN_FIELDS_CHANGE = '(hidden fields)';
/** Change entry of an update planned only because an earlier run's job for the key failed. */
export const RETRY_CHANGE = '(retry)';

/** The delete KeyType that selects listings by the sync key. */
function deleteKeyType(keyType: SyncKeyType): 'MLSNumber' | 'URL' {
  return keyType;
}

/** Why an unchanged-looking feed listing must still be written, or undefined when it need not be. */
function forcedChange(entry: LedgerEntry | undefined, hash: string | undefined, retry: boolean): FieldChange | undefined {
  if (entry !== undefined && hash !== undefined && entry.hash !== hash) return { field: HIDDEN_FIELDS_CHANGE, from: entry.hash, to: hash };
  if (retry) return { field: RETRY_CHANGE, from: 'failed in an earlier run', to: 'retry' };
  return undefined;
}

/**
 * Plans a sync. Rules (see issue 3):
 * - feed key absent remotely → create; present → update when the read shape shows a difference,
 *   when the ledger hash differs (a hidden field changed) or when the key is in retryKeys;
 * - remote key not in the feed → delete (mode mirror only; scope 'managed' only keys in the ledger);
 * - remote duplicates of a key → the oldest copy is kept and the others deleted by NewOaks id, in
 *   every mode. Scope 'managed' restricts this to keys in the ledger or in the feed: those listings
 *   are (or are about to be) ours, so extra copies of them are ours to clean up; a duplicate of a
 *   key we never touched belongs to whoever made it and is only reported.
 */
export function planSync(input: PlanInput): PlanResult {
  const options = { volatileFields: input.volatileFields ?? DEFAULT_VOLATILE_FIELDS };
  const index = indexRemote(input.remote, input.keyType);
  const creates: PlannedCreate[] = [];
  const updates: PlannedUpdate[] = [];
  const deletes: PlannedDelete[] = [];
  let unchanged = 0;

  for (const [key, listing] of input.feed) {
    const kept = index.byKey.get(key)?.[0];
    if (kept === undefined) {
      creates.push({ key, listing, hash: listingHash(listing) });
      continue;
    }
    const changes = diffListing(listing, kept.fields, options);
    if (changes.length > 0) {
      updates.push({ key, listing, hash: listingHash(listing), remoteId: kept.id, changes });
      continue;
    }
    // Hashed only here and for writes: an unchanged listing without a ledger entry needs no hash.
    const entry = input.ledger.get(key);
    const hash = entry === undefined ? undefined : listingHash(listing);
    const forced = forcedChange(entry, hash, input.retryKeys?.has(key) === true);
    if (forced === undefined) unchanged += 1;
    else updates.push({ key, listing, hash: hash ?? listingHash(listing), remoteId: kept.id, changes: [forced] });
  }

  for (const [key, copies] of index.byKey) {
    const managed = input.deleteScope === 'all' || input.ledger.has(key);
    const inFeed = input.feed.has(key);
    if (copies.length > 1 && (managed || inFeed)) {
      for (const extra of copies.slice(1)) deletes.push({ key: extra.id, keyType: 'NewOaks', reason: 'duplicate', listingKey: key });
    }
    if (!inFeed && input.mode === 'mirror' && managed) {
      deletes.push({ key, keyType: deleteKeyType(input.keyType), reason: 'gone', listingKey: key });
    }
  }

  creates.sort((a, b) => compareText(a.key, b.key));
  updates.sort((a, b) => compareText(a.key, b.key));
  // By listing key, then the by-key delete before the copies (by id): one key's deletes stay together.
  deletes.sort((a, b) => compareText(a.listingKey, b.listingKey) || compareDeleteKind(a, b) || compareIds(a.key, b.key));

  const plan: Plan = {
    chatbot: input.chatbot,
    keyType: input.keyType,
    mode: input.mode,
    deleteScope: input.deleteScope,
    creates,
    updates,
    deletes,
    unchanged,
  };
  return { plan, remoteDuplicates: index.duplicates, remoteUnkeyed: index.unkeyed };
}

function compareDeleteKind(a: PlannedDelete, b: PlannedDelete): number {
  return (a.reason === 'gone' ? 0 : 1) - (b.reason === 'gone' ? 0 : 1);
}
