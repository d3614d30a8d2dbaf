/**
 * A result that does not repeat what the progress display already put on the same screen (the
 * plan, its changes and the guard's verdict, shown as soon as the plan existed).
 */

/** `text` without the first run of lines equal to `shown`, in order; `text` as it is when they are not all there. */
export function withoutShown(text: string, shown: readonly string[]): string {
  if (shown.length === 0) return text;
  const lines = text.split('\n');
  const at = lines.findIndex((_, start) => shown.every((line, i) => lines[start + i] === line));
  if (at < 0) return text;
  return [...lines.slice(0, at), ...lines.slice(at + shown.length)].join('\n');
}
