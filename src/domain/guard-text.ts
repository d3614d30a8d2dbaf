/** Wording shared by the guard's refusal reasons. */

/** Rounds a percentage for messages: 12.345 → "12.3". */
export function percentText(value: number): string {
  return String(Math.round(value * 10) / 10);
}
