/**
 * A plan's creates and updates as the planner hands them over: counted, and read in the plan's
 * order (by key) as often as needed. Held in memory (an array: planSync, tests) or spooled to a
 * file by a sync (src/sync/plan-spool.ts), so that a 100k-listing migration does not keep every
 * listing alive while the guard judges the plan and the jobs are enqueued.
 */
import { compareText } from './id-order.js';
import type { PlannedCreate, PlannedUpdate } from './plan.js';
import type { PlannedWrites } from './planned-writes-list.js';

/** Where a planner puts the creates and updates it plans, one at a time, in any order. */
export interface PlannedWritesCollector<C extends PlannedWrites<PlannedCreate>, U extends PlannedWrites<PlannedUpdate>> {
  addCreate(create: PlannedCreate): void;
  addUpdate(update: PlannedUpdate): void;
  /**
   * Everything added, each kind ordered by key (compareText); called once, after the last add.
   * Throws repeatedKeyError when a key was added twice.
   */
  finish(): { creates: C; updates: U };
}

/** What a collector's finish throws for a key added twice: the planner plans each key once, and the importer de-duplicates. */
export function repeatedKeyError(key: string): Error {
  return new Error(`Planner.add: key ${key} added twice (the importer must de-duplicate)`);
}

/** Throws repeatedKeyError for the first key of `sorted` (in key order) equal to the one before it. */
function refuseRepeats(sorted: ReadonlyArray<{ key: string }>): void {
  for (let i = 1; i < sorted.length; i += 1) {
    const key = (sorted[i] as { key: string }).key;
    if (key === (sorted[i - 1] as { key: string }).key) throw repeatedKeyError(key);
  }
}

/** The collector of a plan held in memory: two arrays, sorted by key at the end. */
export function inMemoryWrites(): PlannedWritesCollector<PlannedCreate[], PlannedUpdate[]> {
  const creates: PlannedCreate[] = [];
  const updates: PlannedUpdate[] = [];
  return {
    addCreate: (create) => void creates.push(create),
    addUpdate: (update) => void updates.push(update),
    finish() {
      creates.sort((a, b) => compareText(a.key, b.key));
      updates.sort((a, b) => compareText(a.key, b.key));
      refuseRepeats(creates);
      refuseRepeats(updates);
      return { creates, updates };
    },
  };
}
