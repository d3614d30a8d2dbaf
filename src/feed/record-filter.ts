/**
 * A chatbot's `where` (src/domain/where.ts) applied to the records of a fanned-out source, on the
 * source's own fields (CSV columns, RESO members) before any mapping. It also notes which of its
 * fields the records carry at all: a filter on a field no record has matches nothing, and a run
 * that took that for "the chatbot's listings are gone" would delete them all (sync/where-check.ts).
 */
import { fieldMatches, type Where, type WhereCondition } from '../domain/where.js';
import type { SourceColumns, SourceRecord } from './source-record.js';

export interface RecordFilter {
  /** Whether the record is in the chatbot's view (matches every field). */
  keeps(record: SourceRecord): boolean;
  /** The where's fields that no record seen so far carried (a CSV: not in the header), in the where's order. */
  notCarried(): string[];
  /** Names the source's records do carry, to suggest the field meant (a CSV's header, the members of the first JSON records). */
  knownNames(): string[];
}

/** How many JSON records' members are collected for suggestions: enough to see every member of a RESO feed in practice. */
const NAME_SAMPLE_RECORDS = 200;

interface FieldTest {
  field: string;
  condition: WhereCondition;
  get: (record: SourceRecord) => unknown;
}

/** A CSV's filter: the header says once which fields exist (case-insensitive, as the mapping reads columns). */
function csvFilter(where: Where, columns: SourceColumns): RecordFilter {
  const tests: FieldTest[] = [];
  const missing: string[] = [];
  for (const [field, condition] of Object.entries(where)) {
    const column = columns.find(field);
    if (column === undefined) missing.push(field);
    else tests.push({ field, condition, get: column.get });
  }
  return {
    keeps: (record) => missing.length === 0 && tests.every((test) => fieldMatches(test.get(record), test.condition)),
    notCarried: () => [...missing],
    knownNames: () => [...columns.names],
  };
}

/**
 * A JSON source's filter. Why members by their exact name: RESO names are case-sensitive, and
 * servers omit null members, so only the records read tell which members the source carries.
 */
function jsonFilter(where: Where): RecordFilter {
  const tests = Object.entries(where).map(([field, condition]) => ({ field, condition }));
  const carried = tests.map(() => false);
  let uncarried = tests.length;
  const names = new Set<string>();
  let sampled = 0;
  return {
    keeps(record) {
      const members = record as Readonly<Record<string, unknown>>;
      if (sampled < NAME_SAMPLE_RECORDS) {
        sampled += 1;
        for (const name of Object.keys(members)) names.add(name);
      }
      if (uncarried > 0)
        tests.forEach((test, i) => {
          if (!carried[i] && test.field in members) {
            carried[i] = true;
            uncarried -= 1;
          }
        });
      return tests.every((test) => fieldMatches(members[test.field], test.condition));
    },
    notCarried: () => tests.filter((_test, i) => !carried[i]).map((test) => test.field),
    knownNames: () => [...names],
  };
}

/** The filter of `where` over records of this shape (`csv`: arrays read by the header's columns). */
export function recordFilter(where: Where, format: 'csv' | 'json', columns: SourceColumns): RecordFilter {
  return format === 'csv' ? csvFilter(where, columns) : jsonFilter(where);
}
