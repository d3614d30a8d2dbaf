/**
 * CSV cell encoding that is safe to open in a spreadsheet.
 * Why: a feed is outside data; a value such as `=HYPERLINK(...)` or `+cmd|...` would run as a
 * formula when ops open a report or a rejected-rows download. OWASP's advice: prefix a quote.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 says). */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
