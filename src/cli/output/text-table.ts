/** A list printed for people: a header row, then one aligned row per item (two spaces between columns). */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
