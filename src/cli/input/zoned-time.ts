/** Times as a schedule's time zone shows them ('2026-11-28 02:00'), with their ISO form and UTC. */

/** The zone times are shown in when a schedule has none: this process's (a worker uses its own). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export interface ZonedTime {
  /** '2026-11-28 02:00' in the zone. */
  text: string;
  /** '2026-11-28T02:00:00-06:00': the same instant, ISO 8601 with the zone's offset. */
  iso: string;
  /** '2026-11-28 08:00' in UTC. */
  utcText: string;
  /** '2026-11-28T08:00:00.000Z'. */
  utc: string;
}

function parts(ms: number, timeZone: string): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  return Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
}

/** `ms` in `timeZone` and in UTC. */
export function zonedTime(ms: number, timeZone: string): ZonedTime {
  const p = parts(ms, timeZone);
  const day = `${p.year}-${p.month}-${p.day}`;
  // 'GMT-06:00' → '-06:00'; plain 'GMT' is UTC itself.
  const offset = (p.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
  const utc = new Date(ms).toISOString();
  return {
    text: `${day} ${p.hour}:${p.minute}`,
    iso: `${day}T${p.hour}:${p.minute}:${p.second}${offset}`,
    utcText: `${utc.slice(0, 10)} ${utc.slice(11, 16)}`,
    utc,
  };
}

/** Whether `tz` is an IANA time zone this runtime knows (e.g. America/Chicago). */
export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
