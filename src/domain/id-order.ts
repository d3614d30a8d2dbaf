/**
 * The orders the planner sorts keys and service ids by (the key index itself is
 * remote-key-index.ts).
 */

/** Plain code-unit order: deterministic and independent of the locale (unlike localeCompare). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const DIGITS = /^\d+$/;

/** Service ids: numerically when both are digit strings (so '9' < '10'), otherwise as text. */
export function compareIds(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    // Strip leading zeros so length decides first; this stays exact beyond Number.MAX_SAFE_INTEGER.
    const left = a.replace(/^0+(?=\d)/, '');
    const right = b.replace(/^0+(?=\d)/, '');
    return left.length - right.length || compareText(left, right);
  }
  return compareText(a, b);
}
