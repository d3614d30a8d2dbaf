/**
 * A text field built from a pattern (mapping files' "templates"): `https://acme.example/homes/{ListingId}`,
 * where `{Name}` is a column (or JSON member) of the record, any case. Why: many MLSs leave
 * ListingURL empty while the service requires Url, and a brokerage's site links its listings by a
 * pattern over the listing id. In a URL pattern (http:// or https://) each value is URL-encoded, so
 * a key with a space or a slash stays one path segment; in any other pattern (an Address built
 * from its parts) values go in as they are.
 */
import type { ListingFieldName } from '../domain/listing.js';
import { computedRule, reading, type FieldRule } from './record-mapping.js';
import type { Column, SourceColumns, SourceRecord } from './source-record.js';
import { toText } from './values.js';

/** A template split into literal text and the columns between braces. */
export type TemplatePart = { readonly text: string } | { readonly column: string };

/** The parts of `template`, or why it is not one (a problem sentence for MAPPING_INVALID). */
export function parseTemplate(template: string): { parts: TemplatePart[] } | { problem: string } {
  const parts: TemplatePart[] = [];
  let rest = template;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0) {
      if (close >= 0) return { problem: `'}' without '{' in '${template}'` };
      parts.push({ text: rest });
      break;
    }
    if (close >= 0 && close < open) return { problem: `'}' without '{' in '${template}'` };
    if (close < 0) return { problem: `'{' without '}' in '${template}'` };
    const name = rest.slice(open + 1, close).trim();
    if (name === '' || name.includes('{')) return { problem: `'{${rest.slice(open + 1, close)}}' names no column in '${template}'` };
    if (open > 0) parts.push({ text: rest.slice(0, open) });
    parts.push({ column: name });
    rest = rest.slice(close + 1);
  }
  if (!parts.some((part) => 'column' in part))
    return { problem: `'${template}' has no {Column} in it (a fixed value belongs in "constants")` };
  return { parts };
}

/**
 * The rule filling `field` from `template`'s parts over the feed's `columns`, or the columns the
 * feed lacks. A record whose referenced value is empty gets no value (a required field is then
 * rejected as when its column is empty).
 */
export function templateRule(
  field: ListingFieldName,
  template: string,
  parts: readonly TemplatePart[],
  columns: SourceColumns,
): FieldRule | { missing: string[] } {
  const missing: string[] = [];
  const resolved: (string | Column)[] = [];
  for (const part of parts) {
    if ('text' in part) {
      resolved.push(part.text);
      continue;
    }
    const column = columns.find(part.column);
    if (column === undefined) missing.push(part.column);
    else resolved.push(column);
  }
  if (missing.length > 0) return { missing };
  const used = resolved.filter((part): part is Column => typeof part !== 'string');
  const encode = /^https?:\/\//i.test(template) ? encodeURIComponent : (value: string): string => value;
  const read = (record: SourceRecord): string | undefined => {
    let out = '';
    for (const part of resolved) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const value = toText(part.get(record));
      if (value === undefined) return undefined;
      out += encode(value);
    }
    return out;
  };
  const raw = (record: SourceRecord): string => used.map((column) => `${column.name}=${toText(column.get(record)) ?? ''}`).join(', ');
  return reading(computedRule(field, `template '${template}'`, read, raw), ...used);
}
