/**
 * The planner, fed one listing at a time: the remote is indexed once up front, each feed listing
 * is diffed as it arrives (while the importer is still reading), and `finish()` derives what only
 * the whole feed can tell (deletes, duplicates to clean up) and the deterministic order. Pure: no
 * I/O, no clock, deterministic (same input, same plan, same order), so a dry run shows exactly
 * what a real run does. planSync (below) is this planner run over a whole feed.
 *
 * Memory: only what the plan needs is kept: creates and updates with their listing (in memory, or
 * wherever the caller's collector puts them: a sync spools them to a file), and one byte per
 * remote listing marking "seen in the feed". The remote index maps a key to the position of
 * its kept copy in the caller's array, so no per-key object is built for 1M remote listings.
 */
import { diffListing, DEFAULT_VOLATILE_FIELDS } from './compare.js';
import { fieldChangeCounter, HIDDEN_FIELDS_CHANGE, holdersOf, type FieldTally, type FieldWipe } from './field-changes.js';
import { fieldDigests, fieldsChanged, listingHash, recordedHash } from './hash.js';
import type { Ledger } from './ledger-entry.js';
import type { ListingFields, SyncKeyType } from './listing.js';
import {
  MAX_WITHHELD_LINES,
  type DeleteScope,
  type FieldChange,
  type Plan,
  type PlanInMemory,
  type PlannedCreate,
  type PlannedDelete,
  type PlannedUpdate,
  type SyncMode,
} from './plan.js';
import type { PlannedWrites } from './planned-writes-list.js';
import { inMemoryWrites, type PlannedWritesCollector } from './planned-writes.js';
import { remoteRows, type RemoteListing, type RemoteRows } from './snapshot/remote.js';
import { compareIds, compareText } from './id-order.js';
import { indexRemoteKeys, type RemoteKeyIndex } from './snapshot/remote-key-index.js';
import { planningLedger, type PlanningLedger } from './planning-ledger.js';

/** What the planner needs besides the feed: PlanInput (planner.ts) without `feed`. */
export interface PlannerContext {
  chatbot: string;
  keyType: SyncKeyType;
  /** 'mirror' deletes what the feed no longer has; 'upsert' never deletes. */
  mode: SyncMode;
  /** 'managed': delete only keys in the ledger; 'all': every remote listing may be deleted. */
  deleteScope: DeleteScope;
  /**
   * May hold several listings with one key, and listings with an empty key. Not copied: keep it
   * unchanged until finish(). A snapshot's rows (a RemoteTable), or a plain array of listings.
   */
  remote: RemoteRows | readonly RemoteListing[];
  /** A Ledger map, or a sync's LedgerByPosition (built with `index`). */
  ledger: Ledger | PlanningLedger;
  /** The remote's key index when the caller already built it (a sync does, to read the ledger by position). */
  index?: RemoteKeyIndex;
  /** Defaults to DEFAULT_VOLATILE_FIELDS. */
  volatileFields?: readonly string[];
  /** Keys whose jobs failed finally in an earlier run: planned again even when they look unchanged. */
  retryKeys?: ReadonlySet<string>;
  /**
   * Every key the feed server holds now (a completed key sweep of a replicated feed): a managed
   * listing whose key is not in it, nor in the feed, is deleted whatever the mode. Absent: no sweep.
   */
  sweptKeys?: ReadonlySet<string>;
}

/** A collector of any kind (planned-writes.ts): what createPlanner accepts. */
export type AnyWritesCollector = PlannedWritesCollector<PlannedWrites<PlannedCreate>, PlannedWrites<PlannedUpdate>>;

export interface PlanResult<P extends Plan = PlanInMemory> {
  plan: P;
  /**
   * Unchanged listings the ledger does not know yet (the chatbot had them before listing-sync
   * managed it). A real run records them in the ledger ("adopts" them), so that under the default
   * delete scope they are deleted once they leave the feed, like the listings the tool wrote.
   */
  adopt: Array<{ key: string; hash: string; remoteId: string }>;
  /** Keys held by more than one remote listing, ids oldest first (the first is the one kept). */
  remoteDuplicates: Array<{ key: string; ids: string[] }>;
  /** Remote ids with an empty key: never deleted by key, reported instead. */
  remoteUnkeyed: string[];
  /**
   * Remote listings (one per key) whose key is in the ledger: what scope 'managed' may delete,
   * and so the base a percentage --max-deletes is taken of (ledger entries for keys the chatbot
   * no longer holds are left out: they would dilute the percentage).
   */
  managedListings: number;
  /** Per field, how many updates change it, with the first samples (write-shape field order). */
  fieldChanges: FieldTally[];
  /** Fields the updates would empty on listings that hold a value today (field-changes.ts); checked by the guard. */
  wipes: FieldWipe[];
  /** Fields the updates empty because the records' display flags say so (not wipes: the guard lets them pass). */
  displayBlanks: FieldTally[];
}

export interface Planner<P extends Plan = PlanInMemory> {
  /**
   * Plans one feed listing. Each key at most once (the importer de-duplicates); a repeat throws
   * (a key the remote holds: here; a new key: in finish(), once the creates are in key order).
   * `filled`: the bits (field-changes.ts filledBit) of the fields whose value is a default filled
   * in for want of one, so filling one over a held value is a wipe; `instructed`: those the display flags blank (no wipe).
   */
  add(key: string, listing: ListingFields, filled?: number, instructed?: number): void;
  /**
   * The feed names `key` but its row was rejected: leave that remote listing exactly as it is
   * (no update, and above all no delete). Repeats and unknown keys are no-ops.
   */
  hold(key: string): void;
  /**
   * The feed has rejected rows whose key could not be read (on `lines`): any of them may be the
   * row of any listing, so the plan makes no deletes at all and says why (Plan.deletesWithheld).
   */
  withholdDeletes(lines: readonly number[]): void;
  /**
   * The feed says `key` is off the market (a replicated record whose status is Withdrawn,
   * Expired…): delete that listing when it is managed, whatever the mode. Unknown keys are no-ops.
   */
  remove(key: string): void;
  /** Completes the plan once the whole feed was added; call once, then the planner is spent. */
  finish(): PlanResult<P>;
}

/** What `seen` holds per remote position: not in the feed, listed by it, or held (its row was rejected). */
const UNSEEN = 0;
const MATCHED = 1;
const HELD = 2;

/** Change entry of an update planned only because an earlier run's job for the key failed. */
export const RETRY_CHANGE = '(retry)';

/**
 * The fields of `listing` that differ from what this tool last sent (the recorded digests), for
 * a listing whose content hash changed while the read showed no difference: each field named,
 * its new value, its old one unknown (never read back). One HIDDEN_FIELDS_CHANGE when none can be named.
 */
function notReadBackChanges(listing: ListingFields, recordedDigests: string | undefined): FieldChange[] {
  const fields = recordedDigests === undefined ? [] : fieldsChanged(recordedDigests, fieldDigests(listing));
  if (fields.length === 0) return [{ field: HIDDEN_FIELDS_CHANGE, from: undefined, to: undefined, notReadBack: true }];
  const values = listing as Readonly<Record<string, unknown>>;
  return fields.map((field) => ({ field, from: undefined, to: values[field], notReadBack: true }));
}

function compareDeleteKind(a: PlannedDelete, b: PlannedDelete): number {
  return (a.reason === 'gone' ? 0 : 1) - (b.reason === 'gone' ? 0 : 1);
}

/**
 * Starts a plan. Rules:
 * - feed key absent remotely → create; present → update when the read shape shows a difference,
 *   when the ledger hash differs (a field the read does not show changed: named by the ledger's
 *   field digests) or when the key is in retryKeys;
 * - remote key not in the feed → delete (mode mirror only; scope 'managed' only keys in the ledger);
 * - remote duplicates of a key → the oldest copy is kept and the others deleted by NewOaks id, in
 *   every mode. Scope 'managed' restricts this to keys in the ledger or in the feed: those listings
 *   are (or are about to be) ours, so extra copies of them are ours to clean up; a duplicate of a
 *   key we never touched belongs to whoever made it and is only reported.
 */
export function createPlanner(context: PlannerContext): Planner<PlanInMemory>;
/** A planner whose creates and updates go to `writes` (a sync's spool) instead of arrays. */
export function createPlanner(context: PlannerContext, writes: AnyWritesCollector): Planner<Plan>;
export function createPlanner(context: PlannerContext, writes: AnyWritesCollector = inMemoryWrites()): Planner<Plan> {
  const ledger = planningLedger(context.ledger);
  const remote = Array.isArray(context.remote) ? remoteRows(context.remote) : (context.remote as RemoteRows);
  const options = { volatileFields: context.volatileFields ?? DEFAULT_VOLATILE_FIELDS };
  const index = context.index ?? indexRemoteKeys(remote, context.keyType);
  if (index.keyType !== context.keyType) throw new Error(`createPlanner: the index is by ${index.keyType}, the plan by ${context.keyType}`);
  // One byte per remote position: MATCHED once the feed listed the key of the copy kept there, HELD when its row was rejected.
  const seen = new Uint8Array(remote.length);
  const counter = fieldChangeCounter();
  let unchanged = 0;
  let held = 0;
  const adopt: PlanResult['adopt'] = [];
  let finished = false;
  const unreadableLines: number[] = [];
  const removed = new Set<string>();

  // Why: a row that failed validation says nothing trustworthy about its listing, but it does say
  // the listing is still in the feed. Deleting it would turn one typo into a lost listing.
  function hold(key: string): void {
    if (finished) throw new Error('Planner.hold called after finish()');
    const position = index.kept.get(key);
    if (position === undefined || seen[position] !== UNSEEN) return;
    seen[position] = HELD;
    held += 1;
  }

  function withholdDeletes(lines: readonly number[]): void {
    if (finished) throw new Error('Planner.withholdDeletes called after finish()');
    unreadableLines.push(...lines);
  }

  function remove(key: string): void {
    if (finished) throw new Error('Planner.remove called after finish()');
    removed.add(key);
  }

  function add(key: string, listing: ListingFields, filled = 0, instructed = 0): void {
    if (finished) throw new Error('Planner.add called after finish()');
    const position = index.kept.get(key);
    if (position === undefined) {
      // A create repeated is caught by the collector's finish (repeatedKeyError), in key order.
      // Why not a set of created keys here: it would keep every new key's string for as long as
      // the planner lives, through a migration's writes.
      writes.addCreate({ key, listing });
      return;
    }
    // A listing row wins over a rejected row of the same key, whichever came first (holds are made as rows arrive).
    if (seen[position] === HELD) held -= 1;
    else if (seen[position] !== UNSEEN) throw new Error(`Planner.add: key ${key} added twice (the importer must de-duplicate)`);
    seen[position] = MATCHED;
    const changes = diffListing(listing, remote.fields(position), options);
    if (changes.length > 0) {
      counter.changed(key, changes, filled, instructed);
      writes.addUpdate({ key, listing, hash: recordedHash(listing), remoteId: remote.id(position), changes });
      return;
    }
    // Hashed only here and for writes: an unchanged listing without a ledger entry needs no hash.
    const recorded = ledger.hashOf(key, position);
    const hash = recorded === undefined ? undefined : listingHash(listing);
    const forced =
      recorded !== undefined && recorded !== hash
        ? notReadBackChanges(listing, ledger.digestsOf(key, position))
        : context.retryKeys?.has(key) === true
          ? [{ field: RETRY_CHANGE, from: 'failed in an earlier run', to: 'retry' }]
          : undefined;
    if (forced === undefined) {
      unchanged += 1;
      if (recorded === undefined) adopt.push({ key, hash: recordedHash(listing), remoteId: remote.id(position) });
      return;
    }
    counter.changed(key, forced, 0);
    writes.addUpdate({ key, listing, hash: recordedHash(listing, hash), remoteId: remote.id(position), changes: forced });
  }

  function plannedDeletes(): PlannedDelete[] {
    const deletes: PlannedDelete[] = [];
    const managed = (key: string, position: number): boolean => context.deleteScope === 'all' || ledger.has(key, position);
    // Why 'upsert' still deletes removed and swept-out keys: an incremental pull holds only what
    // changed, so absence means nothing; an off-market status or a key gone from a complete sweep
    // is the feed saying the listing is gone.
    const { sweptKeys } = context;
    const goneFromFeed = (key: string): boolean =>
      context.mode === 'mirror' || removed.has(key) || (sweptKeys !== undefined && !sweptKeys.has(key));
    for (const [key, position] of index.kept) {
      if (seen[position] === UNSEEN && goneFromFeed(key) && managed(key, position))
        deletes.push({ key, keyType: context.keyType, reason: 'gone', listingKey: key });
    }
    for (const [key, positions] of index.copies) {
      const inFeed = seen[positions[0] as number] !== UNSEEN;
      if (!inFeed && !managed(key, positions[0] as number)) continue;
      for (const position of positions.slice(1)) {
        deletes.push({ key: remote.id(position), keyType: 'NewOaks', reason: 'duplicate', listingKey: key });
      }
    }
    // By listing key, then the by-key delete before the copies (by id): one key's deletes stay together.
    return deletes.sort((a, b) => compareText(a.listingKey, b.listingKey) || compareDeleteKind(a, b) || compareIds(a.key, b.key));
  }

  function finish(): PlanResult<Plan> {
    if (finished) throw new Error('Planner.finish called twice');
    finished = true;
    const { creates, updates } = writes.finish();
    adopt.sort((a, b) => compareText(a.key, b.key));
    const deletes = plannedDeletes();
    const plan: Plan = {
      chatbot: context.chatbot,
      keyType: context.keyType,
      mode: context.mode,
      deleteScope: context.deleteScope,
      creates,
      updates,
      deletes,
      unchanged,
      held,
    };
    // Why every delete, duplicate clean-up too: a row whose key cannot be read may be the row of
    // any listing, so no 'gone' delete can be trusted; and a night with a damaged feed is not the
    // night to delete by id either: an extra copy left one more night costs nothing, while a
    // delete cannot be undone. The next run with a readable feed makes them.
    if (unreadableLines.length > 0) {
      plan.deletes = [];
      plan.deletesWithheld = { deletes: deletes.length, rows: unreadableLines.length, lines: unreadableLines.slice(0, MAX_WITHHELD_LINES) };
    }
    const remoteDuplicates = [...index.copies]
      .map(([key, positions]) => ({ key, ids: positions.map((position) => remote.id(position)) }))
      .sort((a, b) => compareText(a.key, b.key));
    const counted = counter.finish(holdersOf(counter.wipedFields(), remote, (position) => seen[position] === MATCHED));
    return {
      plan,
      adopt,
      remoteDuplicates,
      remoteUnkeyed: [...index.unkeyed],
      managedListings: ledger.heldBy(index),
      fieldChanges: counted.changes,
      wipes: counted.wipes,
      displayBlanks: counted.displayBlanks,
    };
  }

  return { add, hold, withholdDeletes, remove, finish };
}

export interface PlanInput extends PlannerContext {
  /** Key → listing, already de-duplicated by the importer. */
  feed: ReadonlyMap<string, ListingFields>;
}

/** Plans a sync over a whole feed (rules: createPlanner). */
export function planSync(input: PlanInput): PlanResult<PlanInMemory> {
  const { feed, ...context } = input;
  const planner = createPlanner(context);
  for (const [key, listing] of feed) planner.add(key, listing);
  return planner.finish();
}
