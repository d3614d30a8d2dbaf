/**
 * The planner: feed + remote snapshot + ledger → what to create, update and delete. Pure and
 * deterministic (same input, same plan, same order), so a dry run shows exactly what a real run does.
 * The rules live in incremental-planner.ts; this is the whole-feed form of it.
 */
import { createIncrementalPlanner, type PlannerContext, type PlanResult } from './incremental-planner.js';
import type { ListingFields } from './listing.js';

export { HIDDEN_FIELDS_CHANGE, RETRY_CHANGE, type PlanResult } from './incremental-planner.js';

export interface PlanInput extends PlannerContext {
  /** Key → listing, already de-duplicated by the importer. */
  feed: ReadonlyMap<string, ListingFields>;
}

/** Plans a sync over a whole feed (rules: createIncrementalPlanner). */
export function planSync(input: PlanInput): PlanResult {
  const { feed, ...context } = input;
  const planner = createIncrementalPlanner(context);
  for (const [key, listing] of feed) planner.add(key, listing);
  return planner.finish();
}
