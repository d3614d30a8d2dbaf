/**
 * What a progress bar says, as plain text: done/total in the bar's own unit (rows, listings,
 * jobs; bytes only as MB beside the rows), the rate, the elapsed time and an ETA. Pure, so the
 * terminal bars and the periodic line a non-terminal gets say the same thing.
 */
import { count } from '../../shared/counts.js';

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

/** What a line leaves out to fit a narrow terminal; the full line leaves out nothing. */
export interface Trim {
  /** Cells of the bar's graphic (0: none). */
  graphic: number;
  /** The stage's own elapsed time ("elapsed 0:04", a finished stage's "in 0:03"). */
  elapsed: boolean;
  /** The share in percent (the graphic shows it too). */
  share: boolean;
  /** The unit after the count ("1,071/1,200" instead of "1,071/1,200 jobs") and the feed's size in bytes. */
  unit: boolean;
  /** The stage's name: padded to line up, as it is, or its first three letters. */
  label: 'padded' | 'bare' | 'short';
}

const FULL: Trim = { graphic: 20, elapsed: true, share: true, unit: true, label: 'padded' };

/** "3,000/12,345 rows" or "3,000 rows · 4.1/16.1 MB" or "0 listings". */
function amount(bar: BarState, trim: Trim): string {
  const unit = trim.unit ? ` ${bar.unit}` : '';
  const counted = bar.total === undefined ? `${count(bar.value)} ${bar.unit}` : `${count(bar.value)}/${count(bar.total)}${unit}`;
  if (bar.bytes === undefined || !trim.unit) return counted;
  const size = bar.bytes.total === undefined ? humanBytes(bar.bytes.read) : `${humanBytes(bar.bytes.read)}/${humanBytes(bar.bytes.total)}`;
  return `${counted} · ${size}`;
}

/** The words after the bar: amount, share, rate, elapsed, ETA; a finished stage's frozen totals. */
export function barDetails(bar: BarState, now: number, trim: Trim = FULL): string {
  const figures = figuresOf(bar, now);
  const rate = figures.rate === undefined ? [] : [`${count(figures.rate)} ${bar.unit}/s`];
  if (isDone(bar)) {
    const size = bar.bytes === undefined || !trim.unit ? '' : ` (${humanBytes(bar.bytes.total ?? bar.bytes.read)})`;
    const took = trim.elapsed ? [`in ${clock(figures.elapsedMs)}`] : [];
    return [`${count(bar.value)} ${bar.unit}${size}, done`, ...rate, ...took].join(' · ');
  }
  const share = figures.fraction === undefined || !trim.share ? [] : [`${Math.floor(figures.fraction * 100)}%`];
  const elapsed = trim.elapsed ? [`elapsed ${clock(figures.elapsedMs)}`] : [];
  const eta = figures.etaMs === undefined ? [] : [`ETA ${clock(Math.ceil(figures.etaMs / 1000) * 1000)}`];
  return [amount(bar, trim), ...share, ...rate, ...elapsed, ...eta].join(' · ');
}

/** A bar's graphic, `width` cells wide; empty when nothing tells the share. */
export function barGraphic(bar: BarState, now: number, width: number): string {
  const fraction = figuresOf(bar, now).fraction;
  if (fraction === undefined || width < 4) return '';
  const full = Math.round(fraction * width);
  return `[${'#'.repeat(full)}${'-'.repeat(width - full)}] `;
}

const LABELS: Readonly<Record<Trim['label'], (name: string) => string>> = {
  padded: (name) => name.padEnd(7),
  bare: (name) => name,
  short: (name) => name.slice(0, 3),
};

/** One terminal line for a bar: name, graphic, details. */
export function barLine(bar: BarState, now: number, trim: Partial<Trim> = {}): string {
  const shape = { ...FULL, ...trim };
  return ` ${LABELS[shape.label](bar.name)} ${barGraphic(bar, now, shape.graphic)}${barDetails(bar, now, shape)}`;
}

/**
 * What goes first when a line is too wide, in order. Why this order: the bar, the rate and the ETA
 * are what a person looks at a running stage for; the stage's elapsed time, the share (the bar
 * shows it), the unit and the label's padding are what they can do without.
 */
const NARROWER: readonly Partial<Trim>[] = [
  {},
  { graphic: 10 },
  { graphic: 10, elapsed: false },
  { graphic: 10, elapsed: false, share: false },
  { graphic: 10, elapsed: false, share: false, unit: false },
  { graphic: 10, elapsed: false, share: false, unit: false, label: 'bare' },
  { graphic: 6, elapsed: false, share: false, unit: false, label: 'bare' },
  { graphic: 6, elapsed: false, share: false, unit: false, label: 'short' },
  { graphic: 4, elapsed: false, share: false, unit: false, label: 'short' },
];

/**
 * The bars' lines, each shorter than `columns` (so the terminal never wraps one): the first step of
 * NARROWER at which every line fits, so the bars stay aligned; a line that fits at none is the
 * narrowest, cut at the edge.
 */
export function fittedBarLines(bars: readonly BarState[], now: number, columns: number | undefined): string[] {
  if (columns === undefined) return bars.map((bar) => barLine(bar, now));
  let lines: string[] = [];
  for (const trim of NARROWER) {
    lines = bars.map((bar) => barLine(bar, now, trim));
    if (lines.every((line) => line.length < columns)) return lines;
  }
  return lines.map((line) => line.slice(0, Math.max(0, columns - 1)));
}

/** The periodic line a non-terminal gets: the command's elapsed time, then each stage in a few words. */
export function statusLine(bars: readonly BarState[], startedAt: number, now: number): string {
  // Why without each stage's own elapsed time: one line, one elapsed value (the command's).
  const stages = bars.map((bar) => `${bar.name} ${barDetails(bar, now, { ...FULL, elapsed: false })}`);
  return `progress, elapsed ${clock(now - startedAt)}: ${stages.length === 0 ? 'starting' : stages.join('; ')}`;
}
