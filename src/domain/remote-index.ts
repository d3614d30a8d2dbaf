/**
 * Indexes remote listings by the sync key: the planner's view of the snapshot, with duplicate
 * and unkeyed listings separated out instead of silently dropped.
 */
import type { SyncKeyType } from './listing.js';
import { keyOfFields, type RemoteListing } from './remote.js';

/** Plain code-unit order: deterministic and independent of the locale (unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const DIGITS = /^\d+$/;

/** Service ids: numerically when both are digit strings (so '9' < '10'), otherwise as text. */
export function compareIds(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    // Strip leading zeros so length decides first; this stays exact beyond Number.MAX_SAFE_INTEGER.
    const left = a.replace(/^0+(?=\d)/, '');
    const right = b.replace(/^0+(?=\d)/, '');
    return left.length - right.length || compareText(left, right);
  }
  return compareText(a, b);
}

export interface RemoteIndex {
  /** Key → remote listings holding it, oldest (lowest id) first. */
  byKey: Map<string, RemoteListing[]>;
  duplicates: Array<{ key: string; ids: string[] }>;
  /** Ids of remote listings with an empty key, sorted. */
  unkeyed: string[];
}

/** The key of a remote listing under a key type, trimmed; '' when it has none. */
export function remoteKey(listing: RemoteListing, keyType: SyncKeyType): string {
  return keyOfFields(listing.fields, keyType);
}

export function indexRemote(remote: readonly RemoteListing[], keyType: SyncKeyType): RemoteIndex {
  const byKey = new Map<string, RemoteListing[]>();
  const unkeyed: string[] = [];
  for (const listing of remote) {
    const key = remoteKey(listing, keyType);
    if (key === '') {
      unkeyed.push(listing.id);
      continue;
    }
    const copies = byKey.get(key);
    if (copies === undefined) byKey.set(key, [listing]);
    else copies.push(listing);
  }
  const duplicates: Array<{ key: string; ids: string[] }> = [];
  for (const [key, copies] of byKey) {
    if (copies.length < 2) continue;
    copies.sort((a, b) => compareIds(a.id, b.id));
    duplicates.push({ key, ids: copies.map((copy) => copy.id) });
  }
  duplicates.sort((a, b) => compareText(a.key, b.key));
  unkeyed.sort(compareIds);
  return { byKey, duplicates, unkeyed };
}
