/**
 * The remote listings by sync key, as positions into the snapshot's rows: built once per sync
 * (after the snapshot is read) and shared by the ledger read (ledger-by-position.ts) and the
 * planner, so a feed row costs one key lookup. No per-key object is built for 1M listings.
 */
import type { SyncKeyType } from './listing.js';
import type { RemoteRows } from './remote.js';
import { compareIds } from './remote-index.js';

export interface RemoteKeyIndex {
  readonly keyType: SyncKeyType;
  /** Key → position of the copy kept (the lowest id). */
  readonly kept: ReadonlyMap<string, number>;
  /** Keys held by several listings → their positions, kept copy first, then by id. */
  readonly copies: ReadonlyMap<string, readonly number[]>;
  /** Ids of remote listings with an empty key, sorted. */
  readonly unkeyed: readonly string[];
}

export function indexRemoteKeys(remote: RemoteRows, keyType: SyncKeyType): RemoteKeyIndex {
  const kept = new Map<string, number>();
  const copies = new Map<string, number[]>();
  const unkeyed: string[] = [];
  for (let position = 0; position < remote.length; position++) {
    const key = remote.key(position, keyType);
    if (key === '') {
      unkeyed.push(remote.id(position));
      continue;
    }
    const first = kept.get(key);
    if (first === undefined) {
      kept.set(key, position);
      continue;
    }
    const list = copies.get(key);
    if (list === undefined) copies.set(key, [first, position]);
    else list.push(position);
  }
  for (const [key, list] of copies) {
    // Why the lowest id is kept: it is the oldest copy, the one other systems most likely point at.
    list.sort((a, b) => compareIds(remote.id(a), remote.id(b)));
    kept.set(key, list[0] as number);
  }
  unkeyed.sort(compareIds);
  return { keyType, kept, copies, unkeyed };
}
