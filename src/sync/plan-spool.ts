/**
 * Where a sync's planner puts its creates and updates: in memory while the plan is small, and in
 * one spool file (spool-file.ts) for both once it is not, so the plan held through the guard and
 * the enqueue is keys, offsets and counts, not every listing. Why the file: a 100k-listing
 * migration held ~100 MiB of listing objects until its jobs were in the queue, and V8 grew the heap
 * to a multiple of that (bench:sync measures the peak RSS).
 */
import type { PlannedWritesCollector } from '../domain/planned-writes.js';
import { inMemoryWrites } from '../domain/planned-writes.js';
import type { PlannedWrites } from '../domain/planned-writes-list.js';
import type { PlannedCreate, PlannedUpdate } from '../domain/plan.js';
import { openSpoolFile, type SpoolFile } from './spool-file.js';
import { spooledWrites } from './spooled-writes.js';

export interface PlanSpool extends PlannedWritesCollector<PlannedWrites<PlannedCreate>, PlannedWrites<PlannedUpdate>> {
  /** Frees the file: the plan's creates and updates cannot be read after it. Idempotent. */
  close(): void;
}

/**
 * Most creates and updates together a plan keeps in memory; the next one moves them all to the
 * file. Why 10,000: that many listings are ~10-20 MiB of objects, which the heap holds without
 * growing much, and below it the file only costs: every item is turned into JSON, written, read
 * back and parsed again, ~15 µs each, all of it before and while the run's first writes go out
 * (bench:sync, 6,000 listings).
 */
export const IN_MEMORY_WRITES = 10_000;

export interface PlanSpoolOptions {
  /** Most writes kept in memory before the plan moves to the file (default IN_MEMORY_WRITES; 0: the file from the first). */
  inMemoryUpTo?: number;
}

/**
 * Opens a plan spool in `dir`. The file is opened at once, even for a plan that will stay in
 * memory, so that a directory that cannot hold it throws SPOOL_UNWRITABLE before anything is read.
 */
export function openPlanSpool(dir: string, options: PlanSpoolOptions = {}): PlanSpool {
  const inMemoryUpTo = options.inMemoryUpTo ?? IN_MEMORY_WRITES;
  const file = openSpoolFile(dir);
  const memory = inMemoryWrites();
  let held = 0;
  let spooled: SpooledPlan | undefined;

  /** The collector the next item goes to: memory, or the file once the plan outgrew memory (memory's items move there first). */
  function next(): SpooledPlan | typeof memory {
    if (spooled === undefined && held++ >= inMemoryUpTo) spooled = spoolPlan(file, memory.finish());
    return spooled ?? memory;
  }

  return {
    addCreate: (create) => next().addCreate(create),
    addUpdate: (update) => next().addUpdate(update),
    finish: () => (spooled ?? memory).finish(),
    close: () => file.close(),
  };
}

type SpooledPlan = PlannedWritesCollector<PlannedWrites<PlannedCreate>, PlannedWrites<PlannedUpdate>>;

/** A collector of creates and updates in `file`, holding `before` (what memory held) first. */
function spoolPlan(file: SpoolFile, before: { creates: PlannedCreate[]; updates: PlannedUpdate[] }): SpooledPlan {
  const creates = spooledWrites<PlannedCreate>(file);
  const updates = spooledWrites<PlannedUpdate>(file);
  for (const create of before.creates) creates.add(create);
  for (const update of before.updates) updates.add(update);
  return {
    addCreate: (create) => creates.add(create),
    addUpdate: (update) => updates.add(update),
    finish: () => ({ creates: creates.finish(), updates: updates.finish() }),
  };
}
