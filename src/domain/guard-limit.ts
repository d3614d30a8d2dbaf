/** A guard's limit as typed (`--max-deletes`, `--max-wipes`), and how its refusal reasons word a percentage. */

/** A count, or a percentage of a base. */
export type GuardLimit = { kind: 'count'; value: number } | { kind: 'percent'; value: number };

/** Rounds a percentage for messages: 12.345 → "12.3". */
export function percentText(value: number): string {
  return String(Math.round(value * 10) / 10);
}
