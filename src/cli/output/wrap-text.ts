/**
 * Word-wrapping for what a terminal shows: a message longer than the terminal is wrapped at word
 * boundaries, never cut, and a command quoted in backticks stays whole on one line (so it can be
 * read and copied as it is).
 */

/** Words of `text`, a backticked span (with the punctuation glued to it) counting as one word. */
function words(text: string): string[] {
  const out: string[] = [];
  const pattern = /\S*`[^`]*`\S*|\S+/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) out.push(match[0]);
  return out;
}

/**
 * `head` and then `text`, wrapped to `width` columns; lines after the first start with `indent`.
 * `head` is kept as it is (its spacing too). A word longer than the line is kept whole on a line
 * of its own (the terminal then wraps it, still whole). No width (not a terminal, or unknown):
 * the text as it is.
 */
export function wrapText(text: string, width: number | undefined, indent = '', head = ''): string {
  if (width === undefined || width < 20 || head.length + text.length <= width) return `${head}${text}`;
  const lines: string[] = [];
  let line = head;
  let start = head;
  for (const word of words(text)) {
    const candidate = line === start ? `${line}${word}` : `${line} ${word}`;
    if (candidate.length <= width || line === start) line = candidate;
    else {
      lines.push(line);
      start = indent;
      line = `${indent}${word}`;
    }
  }
  if (line !== start) lines.push(line);
  return lines.join('\n');
}

/** The width of a stream when it is a terminal (its `columns`); undefined otherwise. */
export function terminalWidth(stream: object & { isTTY?: boolean }): number | undefined {
  if (stream.isTTY !== true || !('columns' in stream)) return undefined;
  return typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : undefined;
}
