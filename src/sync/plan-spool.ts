/**
 * Where a sync's planner puts its creates and updates: one spool file (spool-file.ts) for both,
 * so the plan held through the guard and the enqueue is keys, offsets and counts, not every
 * listing. Why: a 100k-listing migration held ~100 MiB of listing objects until its jobs were in
 * the queue, and V8 grew the heap to a multiple of that (bench:sync measures the peak RSS).
 */
import type { PlannedWritesCollector } from '../domain/planned-writes.js';
import type { PlannedWrites } from '../domain/planned-writes-list.js';
import type { PlannedCreate, PlannedUpdate } from '../domain/plan.js';
import { openSpoolFile } from './spool-file.js';
import { spooledWrites } from './spooled-writes.js';

export interface PlanSpool extends PlannedWritesCollector<PlannedWrites<PlannedCreate>, PlannedWrites<PlannedUpdate>> {
  /** Frees the file: the plan's creates and updates cannot be read after it. Idempotent. */
  close(): void;
}

/** Opens a plan spool in `dir` (throws SPOOL_UNWRITABLE at once when the directory cannot hold it). */
export function openPlanSpool(dir: string): PlanSpool {
  const file = openSpoolFile(dir);
  const creates = spooledWrites<PlannedCreate>(file);
  const updates = spooledWrites<PlannedUpdate>(file);
  return {
    addCreate: (create) => creates.add(create),
    addUpdate: (update) => updates.add(update),
    finish: () => ({ creates: creates.finish(), updates: updates.finish() }),
    close: () => file.close(),
  };
}
