/**
 * Text output of `listings list`: a compact aligned table of the read items and a count line.
 * Values are shown as the service returned them (read shape), so what you see is what it holds.
 */
import type { ListingRead } from '../../api/schemas.js';
import { count, plural } from '../../shared/counts.js';

const COLUMNS = ['ID', 'MLSNumber', 'Status', 'SaleType', 'City', 'Price', 'Url'] as const satisfies ReadonlyArray<keyof ListingRead>;

/** Longest cell shown, so one long URL or city cannot push the table off the screen. */
const MAX_CELL = 60;

function cell(value: unknown): string {
  const text = String(value ?? '').replace(/\s+/g, ' ');
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** The table as lines (header first); [] when there are no items. */
export function listingTable(items: readonly ListingRead[]): string[] {
  if (items.length === 0) return [];
  const rows = [COLUMNS.map(String), ...items.map((item) => COLUMNS.map((column) => cell(item[column])))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) =>
    row
      .map((text, i) => (i === row.length - 1 ? text : text.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * "3 of 42 listings" — the items shown against the service's VirtualCount; when that is one page
 * of more, a second line says which page and how to see the rest.
 */
export function countLines(shown: number, virtualCount: number, page: { number: number; size: number | undefined }): string[] {
  const total = `${count(shown)} of ${plural(virtualCount, 'listing')}`;
  if (shown >= virtualCount || shown === 0) return [total];
  const size = page.size ?? shown;
  const pages = Math.max(1, Math.ceil(virtualCount / Math.max(size, 1)));
  const sized = page.size === undefined ? '' : ` --page-size ${page.size}`;
  const next = page.number < pages ? `, the next page with --page ${page.number + 1}${sized}` : '';
  return [`${total} (page ${count(page.number)} of ${count(pages)})`, `see them all with --all${next}`];
}
