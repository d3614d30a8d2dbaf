/** A guard's limit as typed (`--max-deletes`, `--max-wipes`), and the wording its refusal reasons share. */

/** A count, or a percentage of a base. */
export type GuardLimit = { kind: 'count'; value: number } | { kind: 'percent'; value: number };

/** "1 listing", "3 listings". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Rounds a percentage for messages: 12.345 → "12.3". */
export function percentText(value: number): string {
  return String(Math.round(value * 10) / 10);
}
