/**
 * What a progress bar says, as plain text: done/total in the bar's own unit (rows, listings,
 * jobs; bytes only as MB beside the rows), the rate, the elapsed time and an ETA. Pure, so the
 * terminal bars and the periodic line a non-terminal gets say the same thing.
 */

/** One bar: a stage of the command (feed, remote, jobs). */
export interface BarState {
  name: string;
  /** What is counted: 'rows', 'listings', 'jobs'. */
  unit: string;
  value: number;
  /** In `unit`; undefined while unknown (a feed is counted in rows but measured in bytes). */
  total?: number;
  /** How much of the feed was read, when its size is what is known (a file, a sized download). */
  bytes?: { read: number; total?: number };
  /** Epoch ms of the first update. */
  startedAt: number;
  /** Epoch ms when the stage ended: its rate and elapsed time stop there. */
  finishedAt?: number;
}

/** The numbers of a bar at `now`: what the text shows and the periodic line logs as fields. */
export interface BarFigures {
  /** 0..1; undefined when nothing tells how far along the stage is. */
  fraction?: number;
  elapsedMs: number;
  /** Per second, in `unit`; undefined in the first second (too early to say). */
  rate?: number;
  /** Time left; undefined when unknown or done. */
  etaMs?: number;
}

/**
 * 12,345: thousands grouped with commas, as en-US writes them. Why not toLocaleString: its first
 * call in a process sets up ICU's number formatting, about 15 ms of CPU in every command that
 * shows progress, for a format this simple.
 */
export const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');

/** 16.1 MB: bytes in a unit people read. */
export function humanBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'TB'}`;
}

/** 1:05, 1:02:03: a clock-style duration (short, and easy to read off a log). */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const s = String(seconds % 60).padStart(2, '0');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${s}`;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${s}`;
}

function fractionOf(bar: BarState): number | undefined {
  if (bar.finishedAt !== undefined) return 1;
  if (bar.total !== undefined) return bar.total === 0 ? 1 : Math.min(1, bar.value / bar.total);
  if (bar.bytes?.total !== undefined && bar.bytes.total > 0) return Math.min(1, bar.bytes.read / bar.bytes.total);
  return undefined;
}

/** Below this the rate and the ETA are noise. */
const MEASURED_AFTER_MS = 1000;

export function figuresOf(bar: BarState, now: number): BarFigures {
  const elapsedMs = Math.max(0, (bar.finishedAt ?? now) - bar.startedAt);
  const fraction = fractionOf(bar);
  const measured = elapsedMs >= MEASURED_AFTER_MS;
  const rate = measured ? bar.value / (elapsedMs / 1000) : undefined;
  const going = bar.finishedAt === undefined && fraction !== undefined && fraction > 0 && fraction < 1;
  const etaMs = measured && going ? (elapsedMs * (1 - fraction)) / fraction : undefined;
  return {
    elapsedMs,
    ...(fraction === undefined ? {} : { fraction }),
    ...(rate === undefined ? {} : { rate }),
    ...(etaMs === undefined ? {} : { etaMs }),
  };
}

/** Whether the stage is over (then its figures stay as they were when it ended). */
export const isDone = (bar: BarState): boolean => bar.finishedAt !== undefined;

/** Whether everything the stage counts is counted: all rows, all bytes, all listings. */
export function isComplete(bar: BarState): boolean {
  if (bar.total !== undefined) return bar.value >= bar.total;
  return bar.bytes?.total !== undefined && bar.bytes.read >= bar.bytes.total;
}

/** "3,000/12,345 rows" or "3,000 rows · 4.1/16.1 MB" or "0 listings". */
function amount(bar: BarState): string {
  const counted = bar.total === undefined ? `${count(bar.value)} ${bar.unit}` : `${count(bar.value)}/${count(bar.total)} ${bar.unit}`;
  if (bar.bytes === undefined) return counted;
  const size = bar.bytes.total === undefined ? humanBytes(bar.bytes.read) : `${humanBytes(bar.bytes.read)}/${humanBytes(bar.bytes.total)}`;
  return `${counted} · ${size}`;
}

/** The words after the bar: amount, share, rate, elapsed, ETA; a finished stage's frozen totals. */
export function barDetails(bar: BarState, now: number): string {
  const figures = figuresOf(bar, now);
  const rate = figures.rate === undefined ? [] : [`${count(figures.rate)} ${bar.unit}/s`];
  if (isDone(bar)) {
    const size = bar.bytes === undefined ? '' : ` (${humanBytes(bar.bytes.total ?? bar.bytes.read)})`;
    return [`${count(bar.value)} ${bar.unit}${size}, done`, ...rate, `in ${clock(figures.elapsedMs)}`].join(' · ');
  }
  const share = figures.fraction === undefined ? [] : [`${Math.floor(figures.fraction * 100)}%`];
  const eta = figures.etaMs === undefined ? [] : [`ETA ${clock(Math.ceil(figures.etaMs / 1000) * 1000)}`];
  return [amount(bar), ...share, ...rate, `elapsed ${clock(figures.elapsedMs)}`, ...eta].join(' · ');
}

/** A bar's graphic, `width` cells wide; empty when nothing tells the share. */
export function barGraphic(bar: BarState, now: number, width: number): string {
  const fraction = figuresOf(bar, now).fraction;
  if (fraction === undefined || width < 4) return '';
  const full = Math.round(fraction * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}] `;
}

/** One terminal line for a bar: name, graphic, details. */
export function barLine(bar: BarState, now: number, graphicWidth = 20): string {
  return ` ${bar.name.padEnd(7)} ${barGraphic(bar, now, graphicWidth)}${barDetails(bar, now)}`;
}

/** The periodic line a non-terminal gets: elapsed time, then each stage in a few words. */
export function statusLine(bars: readonly BarState[], startedAt: number, now: number): string {
  const stages = bars.map((bar) => `${bar.name} ${barDetails(bar, now)}`);
  return `progress, elapsed ${clock(now - startedAt)}: ${stages.length === 0 ? 'starting' : stages.join('; ')}`;
}
