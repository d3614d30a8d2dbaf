/**
 * A JSON.parse error as a person reads it: the parser's "at position 64" as "at line 5, column 3",
 * the way fleet.yaml's problems are located (an editor jumps to a line, nobody counts characters).
 */

/** 1-based line and column of the character at `position` in `text`. */
export function lineAndColumnAt(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  return { line: before.split('\n').length, column: position - before.lastIndexOf('\n') };
}

/** The parser's message with its position as line and column (unchanged when it names none). */
export function jsonErrorText(text: string, thrown: unknown): string {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  const position = /at position (\d+)(?: \(line \d+ column \d+\))?/.exec(message);
  if (position?.[1] === undefined) return message;
  const { line, column } = lineAndColumnAt(text, Number(position[1]));
  return message.replace(position[0], `at line ${line}, column ${column}`);
}
