/** Wording shared by the guard's refusal reasons. */

/** "1 listing", "3 listings". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Rounds a percentage for messages: 12.345 → "12.3". */
export function percentText(value: number): string {
  return String(Math.round(value * 10) / 10);
}
