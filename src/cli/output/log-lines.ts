/**
 * Log lines as a person reads them on a terminal: `12:04:31 WARN  message (key=value …)`. The
 * JSON line pino writes is kept for `--json` and for anything that is not a terminal (schedulers,
 * log collectors, pipes), where one JSON object per line is what a machine wants.
 */
import { wrapText } from './wrap-text.js';

const LEVELS: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields pino writes that the readable line shows in its own places, not as key=value. */
const SHOWN: ReadonlySet<string> = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function valueText(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

/** Where a wrapped log line goes on: indented under its message, so its time and level stand out. */
const CONTINUED = '    ';

/**
 * Turns one pino JSON line into a readable one, wrapped at `width` (the terminal's) so that
 * nothing is cut and a quoted command stays whole; a line that is not JSON passes through.
 */
export function readableLogLine(line: string, width?: number): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVELS[typeof entry.level === 'number' ? entry.level : 30] ?? 'INFO ';
  const fields = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  const message = typeof entry.msg === 'string' ? entry.msg : '';
  const body = `${message}${fields.length > 0 ? ` (${fields.join(' ')})` : ''}`;
  return `${wrapText(body, width, CONTINUED, `${time} ${level} `)}\n`;
}
