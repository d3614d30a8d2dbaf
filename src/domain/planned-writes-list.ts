/** The list shape a plan's creates and updates take (plan.ts), whoever holds them (planned-writes.ts, src/sync/plan-spool.ts). */

/**
 * Creates or updates of a plan. Arrays are PlannedWrites; a spooled one reads its items back
 * each time it is iterated, so iterate it in chunks rather than copying it into an array.
 */
export interface PlannedWrites<T> extends Iterable<T> {
  /** How many items: known without reading them (the guard and the summary count them). */
  readonly length: number;
}
