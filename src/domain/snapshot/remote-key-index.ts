/**
 * The remote listings by sync key, as positions into the snapshot's rows: built once per sync
 * (after the snapshot is read) and shared by the ledger read (ledger-by-position.ts) and the
 * planner, so a feed row costs one key lookup. No per-key object is built for 1M listings.
 */
import type { SyncKeyType } from '../listing.js';
import type { RemoteRows } from './remote.js';
import { compareIds } from '../id-order.js';

/** Key → position, read-only: what the planner and the ledger read of the index. */
export interface PositionsByKey extends Iterable<[string, number]> {
  readonly size: number;
  get(key: string): number | undefined;
}

export interface RemoteKeyIndex {
  readonly keyType: SyncKeyType;
  /** Key → position of the copy kept (the lowest id). */
  readonly kept: PositionsByKey;
  /** Keys held by several listings → their positions, kept copy first, then by id. */
  readonly copies: ReadonlyMap<string, readonly number[]>;
  /** Ids of remote listings with an empty key, sorted. */
  readonly unkeyed: readonly string[];
}

/** FNV-1a over UTF-16 code units: cheap for keys of a few dozen characters. */
function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Key → position as an open-addressing table of positions (4 bytes a slot, at most half full):
 * the keys themselves are not copied, they are read from the remote rows. Why not a Map: at 1M
 * listings a Map costs ~28 MiB and the table 8 MiB, for lookups as fast.
 */
class PositionTable implements PositionsByKey {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private count = 0;

  constructor(
    private readonly keyAt: (position: number) => string,
    expected: number,
  ) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  get(key: string): number | undefined {
    const slot = this.find(key);
    const position = this.slots[slot] as number;
    return position < 0 ? undefined : position;
  }

  /** Adds `key` → `position`, or points an existing key at `position`. */
  set(key: string, position: number): void {
    const slot = this.find(key);
    if ((this.slots[slot] as number) < 0) this.count += 1;
    this.slots[slot] = position;
  }

  *[Symbol.iterator](): Iterator<[string, number]> {
    for (const position of this.slots) if (position >= 0) yield [this.keyAt(position), position];
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private find(key: string): number {
    let slot = keyHash(key) & this.mask;
    for (;;) {
      const position = this.slots[slot] as number;
      if (position < 0 || this.keyAt(position) === key) return slot;
      slot = (slot + 1) & this.mask;
    }
  }
}

export function indexRemoteKeys(remote: RemoteRows, keyType: SyncKeyType): RemoteKeyIndex {
  const kept = new PositionTable((position) => remote.key(position, keyType), remote.length);
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
