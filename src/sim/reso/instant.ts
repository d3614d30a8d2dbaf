/**
 * OData DateTimeOffset values: parsed from $filter literals and admin bodies, compared exactly.
 * Records hold milliseconds; a literal may carry up to 7 fractional digits (100 ns ticks), and
 * those extra digits take part in the comparison so `gt` and `ge` stay exact at a boundary.
 */

/** An instant: epoch milliseconds plus 100 ns ticks beyond them (0..9999). */
export interface Instant {
  ms: number;
  ticks: number;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?(Z|[+-]\d{2}:\d{2})$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses `2024-05-01T12:00:00.123Z` (or an offset like +02:00); undefined when not one. */
export function parseInstant(text: string): Instant | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  // Why check by hand: Date.parse rolls 2024-02-31 over to March instead of refusing it.
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const whole = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  if (Number.isNaN(whole)) return undefined;
  const digits = fraction.padEnd(7, '0');
  return { ms: whole + Number(digits.slice(0, 3)), ticks: Number(digits.slice(3)) };
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.ms - b.ms || a.ticks - b.ticks;
}

/** The simulator's stamp form: ISO 8601 with milliseconds and Z. */
export function formatStamp(ms: number): string {
  return new Date(ms).toISOString();
}
