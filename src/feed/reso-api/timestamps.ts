/**
 * ModificationTimestamp values (OData DateTimeOffset) as a replication client needs them: read
 * strictly from records, compared exactly (servers send up to 7 fractional digits, 100 ns), and
 * written into `$filter` literals.
 */

/** An instant: epoch ms plus the 100 ns ticks beyond them (0..9999). */
export interface Stamp {
  ms: number;
  ticks: number;
}

const DATE_TIME_OFFSET = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,7}))?(Z|[+-]\d\d:\d\d)$/i;

/**
 * Parses `2024-05-01T12:00:00.1234567Z` (or `+02:00`); undefined for anything else, a value
 * without an offset included: its instant would depend on this machine's time zone.
 */
export function parseStamp(value: unknown): Stamp | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = DATE_TIME_OFFSET.exec(value);
  if (parts === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = parts;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  // Why: Date.parse turns 2024-02-31 into March 2nd instead of refusing it.
  const roundTrip = [
    calendar.getUTCMonth() + 1,
    calendar.getUTCDate(),
    calendar.getUTCHours(),
    calendar.getUTCMinutes(),
    calendar.getUTCSeconds(),
  ];
  if (roundTrip.join() !== [month, day, hour, minute, second].map(Number).join()) return undefined;
  const whole = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone.toUpperCase()}`);
  const digits = fraction.padEnd(7, '0');
  return { ms: whole + Number(digits.slice(0, 3)), ticks: Number(digits.slice(3)) };
}

/** Negative when `a` is earlier, 0 for the same instant (whatever the offsets), positive when later. */
export function compareStamps(a: Stamp, b: Stamp): number {
  return a.ms - b.ms || a.ticks - b.ticks;
}

/** The `$filter` literal of an instant: UTC, milliseconds, and the ticks when there are any. */
export function stampLiteral(stamp: Stamp): string {
  const text = new Date(stamp.ms).toISOString();
  return stamp.ticks === 0 ? text : `${text.slice(0, -1)}${String(stamp.ticks).padStart(4, '0')}Z`;
}

/** `stamp` moved `overlapMs` earlier, at whole ms (earlier, never later, than the exact value). */
export function stampMinus(stamp: Stamp, overlapMs: number): Stamp {
  return { ms: stamp.ms - overlapMs, ticks: 0 };
}
