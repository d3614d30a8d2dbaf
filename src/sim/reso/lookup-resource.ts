/**
 * The Lookup resource (RESO Data Dictionary 2.0): one row per value of each lookup, with the
 * server's own value (LookupValue), the standard value it stands for (StandardLookupValue, empty
 * for a value of the server's own), and its PascalCase form (LegacyODataValue). Paged like the
 * other resources; keyed by LookupKey, filtered by key or LookupName.
 */
import { COMPARE_OPS, type FilterOp } from './filter.js';
import type { ODataQuery, ResourceSpec } from './odata-query.js';
import { answerPage, type PageContext } from './resources.js';
import type { ResoAnswer, ResoLookupRow } from './types.js';

/** A served row: the configured one with the key and stamp the server gives it. */
export interface LookupRecord extends ResoLookupRow {
  LookupKey: string;
  ModificationTimestamp: string;
}

export const LOOKUP_FIELDS = [
  'LookupKey',
  'LookupName',
  'LookupValue',
  'StandardLookupValue',
  'LegacyODataValue',
  'ModificationTimestamp',
] as const satisfies readonly (keyof LookupRecord)[];

export const LOOKUP_SPEC: ResourceSpec = {
  name: 'Lookup',
  key: 'LookupKey',
  filter: {
    LookupKey: { kind: 'string', ops: new Set<FilterOp>([...COMPARE_OPS, 'in']) },
    LookupName: { kind: 'string', ops: new Set<FilterOp>(['eq', 'in']) },
  },
  orderable: ['LookupKey', 'LookupName'],
  defaultOrder: [{ field: 'LookupKey', descending: false }],
  selectable: LOOKUP_FIELDS,
  expandable: [],
};

/** The stamp every configured row carries: the rows are the server's configuration, not its data. */
const CONFIGURED_AT = '2024-01-01T00:00:00.000Z';

export function lookupRecords(rows: readonly ResoLookupRow[]): LookupRecord[] {
  return rows.map((row, index) => ({ LookupKey: `LK${String(index + 1).padStart(6, '0')}`, ...row, ModificationTimestamp: CONFIGURED_AT }));
}

const read = (row: LookupRecord, field: string): string => String(row[field as keyof LookupRecord] ?? '');

export function answerLookups(rows: readonly LookupRecord[], query: ODataQuery, context: PageContext): ResoAnswer {
  const page = answerPage<LookupRecord>(
    {
      spec: LOOKUP_SPEC,
      ordered: (_, compare) => [...rows].sort(compare),
      read,
      project: (row, q) => (q.select === undefined ? { ...row } : Object.fromEntries(q.select.map((name) => [name, read(row, name)]))),
    },
    query,
    context,
  );
  return { ...page, records: 0 };
}
