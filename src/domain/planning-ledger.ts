/**
 * The ledger as the planner reads it: which keys listing-sync manages, and the content hash (with
 * its field digests) it last wrote for each. Two forms: any Ledger map (tests, small callers), or a LedgerByPosition
 * (a sync's: hashes held by the position of the remote listing they belong to).
 */
import { hashParts } from './hash.js';
import type { Ledger } from './ledger-entry.js';
import type { RemoteKeyIndex } from './snapshot/remote-key-index.js';

export interface PlanningLedger {
  /** Entries in the ledger, including keys no remote listing holds (not the guard's base: see heldBy). */
  readonly size: number;
  /**
   * Entries whose key a listing of `index` holds (a key held by several copies counts once): the
   * managed listings a percentage --max-deletes is taken of. Why not `size`: entries for keys the
   * chatbot lost (deleted by hand, or written under another key type) can never be deleted by
   * this run, and counting them would let a plan delete a larger share of what is really there.
   */
  heldBy(index: RemoteKeyIndex): number;
  /** Whether `key`, held by the remote listing at `position`, is in the ledger. */
  has(key: string, position: number): boolean;
  /** The content hash recorded for `key` (remote listing at `position`), or undefined when none. */
  hashOf(key: string, position: number): string | undefined;
  /** The field digests recorded with it (hash.ts fieldDigests), or undefined when the entry has none (written before they were kept). */
  digestsOf(key: string, position: number): string | undefined;
}

/** A Ledger map seen through PlanningLedger (positions are ignored). */
export function planningLedger(ledger: Ledger | PlanningLedger): PlanningLedger {
  if ('hashOf' in ledger) return ledger;
  const map = ledger;
  const recorded = (key: string): ReturnType<typeof hashParts> | undefined => {
    const entry = map.get(key);
    return entry === undefined ? undefined : hashParts(entry.hash);
  };
  return {
    get size() {
      return map.size;
    },
    heldBy: (index) => {
      let held = 0;
      for (const key of map.keys()) if (index.kept.get(key) !== undefined) held += 1;
      return held;
    },
    has: (key) => map.has(key),
    hashOf: (key) => recorded(key)?.hash,
    digestsOf: (key) => recorded(key)?.digests,
  };
}
