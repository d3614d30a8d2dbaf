/**
 * Which new column looks like a column that went away ("PRICE" → "LIST PRICE", "BEDS" →
 * "BEDROOMS", "MLS#" → "MLS NUMBER"): vendors rename columns by adding a word, spelling a word
 * out, or changing its punctuation, so names are compared by their words (all the words of one
 * found in the other counts for at least a half), by one containing the other, and by edit
 * distance, whichever says they are closest.
 */
import { editDistance } from '../shared/edit-distance.js';

/** The words of a column name: 'LIST PRICE' → list, price; 'ListPrice_USD' → list, price, usd. */
const tokens = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? [];

/** How alike two column names are, from 0 (nothing shared) to 1 (the same words). */
export function columnLikeness(a: string, b: string): number {
  const left = tokens(a);
  const right = tokens(b);
  const compactLeft = left.join('');
  const compactRight = right.join('');
  if (compactLeft === '' || compactRight === '') return 0;
  const longer = Math.max(compactLeft.length, compactRight.length);
  const shorter = Math.min(compactLeft.length, compactRight.length);
  const leftSet = new Set(left);
  const shared = new Set(right.filter((token) => leftSet.has(token))).size;
  const jaccard = shared / new Set([...left, ...right]).size;
  const within = shared === Math.min(new Set(left).size, new Set(right).size);
  const words = within ? 0.5 + jaccard / 2 : jaccard;
  const contained = compactLeft.includes(compactRight) || compactRight.includes(compactLeft) ? shorter / longer : 0;
  const spelled = 1 - editDistance(compactLeft, compactRight) / longer;
  return Math.max(words, contained, spelled);
}

/** Why one half: below it, names share less than they differ ('PRICE' and 'SOURCE' score 0.33). */
const LOOKS_ALIKE = 0.5;

/** The candidate most like `gone` (the first of equals), or undefined when none looks like it. */
export function lookalikeColumn(gone: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = LOOKS_ALIKE;
  for (const candidate of candidates) {
    const score = columnLikeness(gone, candidate);
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
