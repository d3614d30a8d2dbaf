/**
 * Bars drawn at the bottom of a terminal, redrawn in place. Whatever else is written to the same
 * stream while they are drawn (a log line, the line that says how to resume a run) is written
 * above them, whole: the bars are cleared, the text written, the bars drawn again. Why not a
 * library's multi-bar: they turn the terminal's line wrapping off while drawing, and every line
 * written meanwhile was cut at the terminal's width (the `runs resume` command with it).
 */
import type { Writable } from 'node:stream';

export interface TtyBars {
  /** Draws `lines` in place of the previous ones. */
  draw(lines: readonly string[]): void;
  /** Leaves the last lines on the screen and gives the stream back as it was. */
  release(): void;
}

type WriteFn = Writable['write'];

/** How many terminal rows `line` takes at `width` columns (the terminal wraps a longer one). */
const rowsOf = (line: string, width: number | undefined): number =>
  width === undefined || width <= 0 ? 1 : Math.max(1, Math.ceil(line.length / width));

export function ttyBars(stream: Writable, width: () => number | undefined): TtyBars {
  const write: WriteFn = stream.write.bind<WriteFn>(stream);
  let shown: readonly string[] = [];
  let rows = 0;
  const clear = (): void => {
    // Up to the first row of the bars, then erase to the end of the screen.
    if (rows > 0) write(`\r\u001b[${rows}A\u001b[J`);
    rows = 0;
  };
  const paint = (): void => {
    if (shown.length === 0) return;
    const columns = width();
    write(`${shown.join('\n')}\n`);
    rows = shown.reduce((sum, line) => sum + rowsOf(line, columns), 0);
  };
  const foreign = ((chunk: unknown, ...rest: unknown[]): boolean => {
    clear();
    const written = (write as (chunk: unknown, ...rest: unknown[]) => boolean)(chunk, ...rest);
    paint();
    return written;
  }) as WriteFn;
  stream.write = foreign;
  return {
    draw(lines) {
      clear();
      shown = lines;
      paint();
    },
    release() {
      if (stream.write === foreign) stream.write = write;
    },
  };
}
