/**
 * A RESO server's Lookup resource (Data Dictionary 2.0: LookupName, LookupValue,
 * StandardLookupValue, LegacyODataValue), read once with the `$metadata` and kept with it: the
 * values a server uses of its own (a local `Seasonal Dues` for the standard `Seasonal`) are
 * turned into their standard value before the reso profile reads a record, so the Data
 * Dictionary's table understands them. Only rows that change something are kept.
 */
import type { Logger } from '../../runtime/logger.js';
import { displaySource } from '../feed-source.js';
import { keyedPages, newProgress, type JsonSource } from './keyed-pager.js';
import { refusedStatus } from './reso-errors.js';
import { declares, resourceOf, type ServiceMetadata } from './service-metadata.js';
import type { ResoRecord } from './types.js';

/** Per Property field: a value the server sends (its LookupValue or LegacyODataValue) → the StandardLookupValue. */
export type LookupTable = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The most Lookup rows read: a whole MLS's lookups are some ten thousand. */
export const LOOKUP_MAX_ROWS = 100_000;

const LOOKUP_FIELDS = ['LookupName', 'LookupValue', 'StandardLookupValue', 'LegacyODataValue'] as const;

/** Whether the server publishes a Lookup resource with the fields this reads. */
export function hasLookupResource(metadata: ServiceMetadata | undefined): boolean {
  const lookup = resourceOf(metadata, 'Lookup');
  return lookup !== undefined && declares(lookup, 'LookupName') && declares(lookup, 'StandardLookupValue');
}

/** `org.reso.metadata.enums.StandardStatus` and `StandardStatus` name the same lookup. */
const localName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The server's values of each lookup (by local name) that differ from their standard value. */
function standardsOf(rows: readonly ResoRecord[]): Map<string, Record<string, string>> {
  const byLookup = new Map<string, Record<string, string>>();
  for (const row of rows) {
    const name = text(row.LookupName);
    const standard = text(row.StandardLookupValue);
    if (name === undefined || standard === undefined) continue;
    for (const own of [text(row.LookupValue), text(row.LegacyODataValue)]) {
      if (own === undefined || own === standard) continue;
      const values = byLookup.get(localName(name)) ?? {};
      values[own] = standard;
      byLookup.set(localName(name), values);
    }
  }
  return byLookup;
}

/** Per Property field, the values of its lookup (its LookupName annotation, or a lookup of its own name). */
function tableOf(metadata: ServiceMetadata, byLookup: ReadonlyMap<string, Record<string, string>>): LookupTable {
  const property = resourceOf(metadata, 'Property');
  const table: Record<string, Record<string, string>> = {};
  for (const field of Object.keys(property?.fields ?? {})) {
    const name = property?.lookupNames?.[field] ?? field;
    const values = byLookup.get(localName(name));
    if (values !== undefined) table[field] = values;
  }
  return table;
}

export interface LookupRead {
  table: LookupTable;
  rows: number;
  /** The resource held more than LOOKUP_MAX_ROWS rows: the rest were not read. */
  truncated: boolean;
}

/**
 * Reads the Lookup resource beside the Property resource, by key, at most LOOKUP_MAX_ROWS rows;
 * undefined when the metadata declares none or the server refuses the read (it then has none to
 * offer). Other failures are thrown, as the `$metadata` read's are.
 */
export async function readLookups(
  source: JsonSource,
  options: { lookupUrl: string; metadata: ServiceMetadata; pageSize: number; logger?: Logger; maxRows?: number },
): Promise<LookupRead | undefined> {
  const lookup = resourceOf(options.metadata, 'Lookup');
  if (lookup === undefined || !hasLookupResource(options.metadata)) return undefined;
  const maxRows = options.maxRows ?? LOOKUP_MAX_ROWS;
  const select = [lookup.key, ...LOOKUP_FIELDS.filter((field) => declares(lookup, field))];
  const rows: ResoRecord[] = [];
  let truncated = false;
  try {
    const pages = keyedPages(
      source,
      {
        resourceUrl: options.lookupUrl,
        query: { select: [...new Set(select)] },
        order: { keyField: lookup.key },
        pageSize: options.pageSize,
        ...(options.logger ? { logger: options.logger } : {}),
      },
      newProgress(),
    );
    for await (const page of pages) {
      rows.push(...page.slice(0, maxRows - rows.length));
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
    }
  } catch (thrown) {
    const status = refusedStatus(thrown);
    if (status === undefined) throw thrown;
    options.logger?.info(
      { where: displaySource(options.lookupUrl), status },
      'feed server refused its Lookup resource; using the Data Dictionary values',
    );
    return undefined;
  }
  if (truncated)
    options.logger?.warn(
      { where: displaySource(options.lookupUrl), rows: maxRows },
      `feed server's Lookup resource holds more than ${maxRows} rows; the rest are not used`,
    );
  return { table: tableOf(options.metadata, standardsOf(rows)), rows: rows.length, truncated };
}

/** Replaces, in place, each lookup value of `records` the table knows by its standard value (each item of a multi-valued field). */
export function translateLookups(records: readonly ResoRecord[], table: LookupTable): void {
  const fields = Object.entries(table);
  if (fields.length === 0) return;
  for (const record of records)
    for (const [field, values] of fields) {
      const value = record[field];
      const standard = (item: unknown): unknown => (typeof item === 'string' && Object.hasOwn(values, item) ? values[item] : item);
      if (typeof value === 'string') record[field] = standard(value);
      else if (Array.isArray(value)) record[field] = value.map(standard);
    }
}
