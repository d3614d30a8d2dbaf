/**
 * Progress of a long command on stderr: bars with done/total, rate, elapsed time and ETA on a
 * terminal; elsewhere (a pipe, a scheduler's log, --json) one line every few seconds, so a long
 * run never looks dead. The stages' words come from progress-format.ts; stdout is never touched.
 */
import type { Logger } from '../../runtime/logger.js';
import type { CliIo } from '../io.js';
import { figuresOf, fittedBarLines, isComplete, isDone, statusLine, type BarState } from './progress-format.js';
import { ttyBars, type TtyBars } from './tty-bars.js';
import { terminalWidth } from './wrap-text.js';

export interface ProgressBars {
  /** Updates (creating on first use) the stage called `name`, counted in its unit (remote: listings). */
  update(name: string, value: number, total: number): void;
  /** The feed stage: rows read, and bytes read of the feed's size when that is known. */
  feed(rows: number, bytes: number, totalBytes: number | undefined): void;
  /** The stage is over: its rate and elapsed time stop counting. */
  finish(name: string): void;
  /** Lines to show now, above the bars (the plan as soon as it exists). */
  note(lines: readonly string[]): void;
  /** The noted lines that were written out (a non-terminal's wait until its first status line). */
  shown(): readonly string[];
  /** Stops drawing (before the result is printed); the release stack stops them too, on every path. */
  stop(): Promise<void>;
}

/**
 * How often a non-terminal gets its line. Why 5 s: the promise is a line at least every 10 s,
 * and a loaded machine's timers run late; half the promise keeps it.
 */
export const STATUS_EVERY_MS = 5000;
/** How often the terminal bars are redrawn: the elapsed time and ETA move even when no count does. */
const REDRAW_EVERY_MS = 250;

const UNITS: Readonly<Record<string, string>> = { feed: 'rows', remote: 'listings', jobs: 'jobs', edits: 'edits' };

/** Where the bars' text goes: drawn on a terminal, or logged every few seconds. */
interface Sink {
  show(bars: readonly BarState[], now: number): void;
  note(lines: readonly string[]): void;
  /** The noted lines written out so far. */
  shown(): readonly string[];
  close(bars: readonly BarState[], now: number): void;
}

function terminalSink(io: CliIo): Sink {
  let drawn: TtyBars | undefined;
  const written: string[] = [];
  const draw = (bars: readonly BarState[], now: number): void => {
    drawn ??= ttyBars(io.stderr, () => terminalWidth(io.stderr));
    const columns = terminalWidth(io.stderr);
    drawn.draw(fittedBarLines(bars, now, columns));
  };
  return {
    show: draw,
    note(lines) {
      io.stderr.write(`${lines.join('\n')}\n`);
      written.push(...lines);
    },
    shown: () => written,
    close(bars, now) {
      if (bars.length > 0) draw(bars, now);
      drawn?.release();
    },
  };
}

function periodicSink(io: CliIo, logger: Logger | undefined, startedAt: number): Sink {
  let spoken = false;
  let held: readonly string[] = [];
  const written: string[] = [];
  const say = (text: string, fields: Record<string, unknown>): void => {
    if (logger === undefined) io.stderr.write(`${text}\n`);
    else logger.info(fields, text);
  };
  return {
    show(bars, now) {
      const current = bars.find((bar) => !isDone(bar)) ?? bars[bars.length - 1];
      const figures = current === undefined ? undefined : figuresOf(current, now);
      say(statusLine(bars, startedAt, now), {
        elapsedSeconds: Math.round((now - startedAt) / 1000),
        ...(current === undefined ? {} : { stage: current.name, done: current.value, total: current.total ?? null }),
        ...(figures?.rate === undefined ? {} : { perSecond: Math.round(figures.rate) }),
        ...(figures?.etaMs === undefined ? {} : { etaSeconds: Math.round(figures.etaMs / 1000) }),
      });
      if (!spoken && held.length > 0) for (const line of held) say(line, {});
      if (!spoken) written.push(...held);
      spoken = true;
    },
    // Why held until the first periodic line: a short run prints its whole summary a moment later.
    note(lines) {
      if (!spoken) held = lines;
      else {
        for (const line of lines) say(line, {});
        written.push(...lines);
      }
    },
    shown: () => written,
    close: () => undefined,
  };
}

/**
 * The progress display of one command. On a terminal without --json: bars. Otherwise a status
 * line every STATUS_EVERY_MS, through `logger` when given (a JSON line where logs are JSON).
 */
export function createProgressBars(io: CliIo, json: boolean | undefined, logger?: Logger, now: () => number = Date.now): ProgressBars {
  const startedAt = now();
  const bars = new Map<string, BarState>();
  const onTerminal = json !== true && io.stderr.isTTY === true;
  const sink = onTerminal ? terminalSink(io) : periodicSink(io, logger, startedAt);
  const list = (): BarState[] => [...bars.values()];
  const timer = setInterval(
    () => {
      if (onTerminal && bars.size === 0) return;
      sink.show(list(), now());
    },
    onTerminal ? REDRAW_EVERY_MS : STATUS_EVERY_MS,
  );
  timer.unref();
  const stateOf = (name: string): BarState => {
    let bar = bars.get(name);
    if (bar === undefined) {
      bar = { name, unit: UNITS[name] ?? name, value: 0, startedAt: now() };
      bars.set(name, bar);
    }
    return bar;
  };
  const stop = io.releases.push('progress bars', () => {
    clearInterval(timer);
    const end = now();
    for (const bar of bars.values()) if (isComplete(bar)) bar.finishedAt ??= end;
    sink.close(list(), end);
  });
  return {
    update(name, value, total) {
      const bar = stateOf(name);
      bar.value = value;
      // Why 0 is "not known yet" for jobs: a run's total is 0 until it is sealed; an empty chatbot's 0 listings is a total.
      if (total === 0 && name !== 'remote') delete bar.total;
      else bar.total = Math.max(total, value);
      // A stage counted to its end is over (an empty chatbot is read at once); the jobs stage grows while enqueued.
      if (name !== 'jobs' && isComplete(bar)) bar.finishedAt ??= now();
    },
    feed(rows, bytes, totalBytes) {
      const bar = stateOf('feed');
      bar.value = rows;
      bar.bytes = { read: bytes, ...(totalBytes === undefined ? {} : { total: totalBytes }) };
    },
    finish(name) {
      const bar = bars.get(name);
      if (bar !== undefined) bar.finishedAt ??= now();
    },
    note: (lines) => sink.note(lines),
    shown: () => sink.shown(),
    stop,
  };
}
