/**
 * The ledger as the planner reads it: which keys listing-sync manages, and the content hash it
 * last wrote for each. Two forms: any Ledger map (tests, small callers), or a LedgerByPosition
 * (a sync's: hashes held by the position of the remote listing they belong to).
 */
import type { Ledger } from './ledger-entry.js';

export interface PlanningLedger {
  /** Entries in the ledger (including keys the chatbot no longer holds): the managed count. */
  readonly size: number;
  /** Whether `key`, held by the remote listing at `position`, is in the ledger. */
  has(key: string, position: number): boolean;
  /** The hash recorded for `key` (remote listing at `position`), or undefined when none. */
  hashOf(key: string, position: number): string | undefined;
}

/** A Ledger map seen through PlanningLedger (positions are ignored). */
export function planningLedger(ledger: Ledger | PlanningLedger): PlanningLedger {
  if ('hashOf' in ledger) return ledger as PlanningLedger;
  const map = ledger as Ledger;
  return {
    get size() {
      return map.size;
    },
    has: (key) => map.has(key),
    hashOf: (key) => map.get(key)?.hash,
  };
}
