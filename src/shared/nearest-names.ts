/**
 * "Did you mean …?" for unknown field names: compares the typed name with every valid name and
 * with each CamelCase word of it (so 'Colour' finds ChatBubbleColor and UserMessageColor).
 */
import { editDistance as distance } from './edit-distance.js';

function words(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name];
}

/** The valid names closest to `typed` (best score first, at most `limit`), or [] when none is close. */
export function nearestNames(typed: string, valid: readonly string[], limit = 3): string[] {
  const needle = typed.toLowerCase();
  // Why this threshold: one typo per three letters still reads as "the same word".
  const tolerance = Math.max(1, Math.floor(needle.length / 3));
  const scored = valid
    .map((name) => {
      const whole = distance(needle, name.toLowerCase());
      const part = Math.min(...words(name).map((w) => distance(needle, w.toLowerCase())));
      return { name, score: Math.min(whole, part + 0.5) };
    })
    .filter((entry) => entry.score <= tolerance)
    .sort((a, b) => a.score - b.score);
  return scored.slice(0, limit).map((entry) => entry.name);
}

/** " (did you mean A or B?)" or '' — ready to append to a message. */
export function didYouMean(typed: string, valid: readonly string[]): string {
  const names = nearestNames(typed, valid);
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return ` (did you mean ${list}?)`;
}
