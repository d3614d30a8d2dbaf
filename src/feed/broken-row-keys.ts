/**
 * The key of a record too broken to map: a CSV row with the wrong number of fields, a JSON
 * record that does not parse (or is not an object). Such a row is rejected, and a rejected row
 * holds its listing (it is left as it is, above all not deleted); so its key is read wherever
 * the row's damage leaves its position trustworthy. Where it does not, the row's key is
 * `unreadable`, and a run with such a row deletes nothing at all (see plan-feed-rows.ts).
 *
 * Why holding several candidates is right: holding only ever prevents a delete or an update of
 * a listing for one night, which is the safe direction; missing the real key deletes a listing
 * the feed still names. So every value that could be the row's key is held.
 */
import type { FieldRule } from './record-mapping.js';
import type { SourceItem } from './source-record.js';

/** What a broken row says about its key. */
export type BrokenRowKey =
  /** Read where the row is intact; `key` is '' when that cell is empty (the row names no listing). */
  | { readonly kind: 'known'; readonly key: string }
  /** One of these (two or more) is the row's key; empty values are left out: they name no listing. */
  | { readonly kind: 'candidates'; readonly keys: readonly string[] }
  /** Nowhere in the row can be trusted to hold its key; `why` completes "its key cannot be read: …". */
  | { readonly kind: 'unreadable'; readonly why: string };

export type BrokenKeyReader = (item: SourceItem) => BrokenRowKey;

/**
 * Most stray delimiters in a row whose key is still looked for. Why 8: an address or remark with
 * a few unquoted commas is common; a row with more is more likely a wrong delimiter or two lines
 * run together, where no alignment can be trusted (and 8 strays already make 45 candidates).
 */
export const MAX_STRAY_DELIMITERS = 8;

/** The key a value gives through the key rule, as a well-formed row's key is computed (trimmed text). */
function keyThrough(rule: FieldRule, record: SourceItem['record']): string {
  const value = rule.read(record);
  return typeof value === 'string' ? value.trim() : '';
}

const normalise = (name: string): string => name.trim().toLowerCase();

/**
 * Key reader for CSV rows, whose cells are aligned with `header` only when their count matches.
 * - More cells than the header (unquoted delimiters inside cells): the cells before the first
 *   stray delimiter are aligned from the left, those after the last from the right, so the key
 *   cell is one of the cells from its column to its column + the number of strays, or a run of
 *   them joined by the delimiter (a stray inside the key itself). Every such value is a candidate.
 * - Fewer cells (a cut-off last line, a line broken by an unquoted newline): the cells are
 *   aligned from the left and the last one may be cut short, so the key is trusted when its
 *   column lies strictly before the last cell present.
 */
export function csvBrokenKeyReader(rule: FieldRule | undefined, header: readonly string[], delimiter: string): BrokenKeyReader {
  const column = rule?.column;
  const index = column === undefined ? -1 : header.findIndex((name) => normalise(name) === normalise(column));
  const width = header.length;
  const through = (raw: string): string => {
    const record: string[] = new Array<string>(width).fill('');
    record[index] = raw;
    return keyThrough(rule as FieldRule, record);
  };
  return (item) => {
    if (rule === undefined || index < 0) return { kind: 'unreadable', why: 'the key comes from no single column' };
    const cells = item.record as readonly string[];
    const extra = cells.length - width;
    if (extra < 0) {
      if (index < cells.length - 1) return { kind: 'known', key: through(cells[index] ?? '') };
      const why =
        index === cells.length - 1
          ? `the key is the row's last field, ${cells.length}, which may be cut short`
          : `the row stops at field ${cells.length}, before the key, field ${index + 1}`;
      return { kind: 'unreadable', why };
    }
    if (extra > MAX_STRAY_DELIMITERS)
      return {
        kind: 'unreadable',
        why: `${extra} fields too many, more than ${MAX_STRAY_DELIMITERS} stray delimiters to tell where the key is`,
      };
    const keys = new Set<string>();
    for (let start = index; start <= index + extra; start++) {
      for (let end = start; end <= index + extra; end++) {
        const run = cells.slice(start, end + 1);
        // Empty cells name no listing, joined or not.
        if (run.every((cell) => cell.trim() === '')) continue;
        const key = through(run.join(delimiter));
        if (key !== '') keys.add(key);
      }
    }
    // Every candidate empty: whichever alignment is right, the key cell is empty (as for a row whose key is empty).
    return keys.size <= 1 ? { kind: 'known', key: [...keys][0] ?? '' } : { kind: 'candidates', keys: [...keys] };
  };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A complete JSON string, or a number followed by what ends a value (a number at the end of the text may be cut short). */
const VALUE = /^\s*("(?:[^"\\\u0000-\u001f]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]]))/;

/**
 * Key reader for JSON records that are not valid JSON (or not an object): the key member
 * (`"ListingId": "R1"` under the reso profile, or the member the mapping reads the key from) is
 * trusted when it appears exactly once in the record's text with a complete string or number.
 * Twice (a nested copy, or two records run together) or cut short, the key is unreadable: the
 * text is not parsed further, because where it is broken nothing after that point is reliable.
 */
export function jsonBrokenKeyReader(rule: FieldRule | undefined): BrokenKeyReader {
  const member = rule?.column;
  const pattern = member === undefined ? undefined : new RegExp(`${escapeRegExp(JSON.stringify(member))}\\s*:`, 'g');
  return (item) => {
    if (rule === undefined || member === undefined || pattern === undefined)
      return { kind: 'unreadable', why: 'the key comes from no single member' };
    const text = item.text;
    if (text === undefined) return { kind: 'unreadable', why: "the record's text was not kept" };
    const found = [...text.matchAll(pattern)];
    if (found.length !== 1)
      return {
        kind: 'unreadable',
        why: found.length === 0 ? `no "${member}" member in it` : `"${member}" appears ${found.length} times in it`,
      };
    const at = (found[0]?.index ?? 0) + (found[0]?.[0].length ?? 0);
    const value = VALUE.exec(text.slice(at))?.[1];
    if (value === undefined) return { kind: 'unreadable', why: `"${member}" has no complete string or number` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return { kind: 'unreadable', why: `"${member}" is not a valid JSON string` };
    }
    return { kind: 'known', key: keyThrough(rule, { [member]: parsed }) };
  };
}
