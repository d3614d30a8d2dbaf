/**
 * A chatbot's `where`: which of its source's records it receives, by the source's own field names.
 * Each field holds a value (equal), a list (equal to one of them) or a range ({gte, lte, gt, lt});
 * a record matches when every field does. Pure: checked when fleet.yaml is read, applied to source
 * records by the feed readers (src/feed/record-filter.ts) when a fleet source is fanned out.
 */

export type WhereScalar = string | number | boolean;
export const RANGE_OPERATORS = ['gte', 'lte', 'gt', 'lt'] as const;
export type RangeOperator = (typeof RANGE_OPERATORS)[number];
export type WhereRange = Partial<Record<RangeOperator, string | number>>;
export type WhereCondition = WhereScalar | WhereScalar[] | WhereRange;
export type Where = Record<string, WhereCondition>;

/** A problem with a `where`, at a path below it (the field, then the operator or list index). */
export interface WhereProblem {
  path: Array<string | number>;
  message: string;
  /** Whether the problem is the key's (an unknown operator) rather than the value's. */
  atKey?: boolean;
}

const isScalar = (value: unknown): value is WhereScalar =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function conditionProblems(field: string, condition: unknown): WhereProblem[] {
  if (isScalar(condition)) return [];
  if (Array.isArray(condition)) {
    if (condition.length === 0) return [{ path: [field], message: 'an empty list matches nothing; give at least one value' }];
    return condition.flatMap((item, index) =>
      isScalar(item) ? [] : [{ path: [field, index], message: 'a list holds plain values (text, numbers, true/false)' }],
    );
  }
  if (isRecord(condition)) {
    const operators = Object.keys(condition);
    if (operators.length === 0) return [{ path: [field], message: `a range needs one of ${RANGE_OPERATORS.join(', ')}` }];
    return operators.flatMap((operator): WhereProblem[] => {
      if (!(RANGE_OPERATORS as readonly string[]).includes(operator))
        return [
          { path: [field, operator], atKey: true, message: `unknown operator '${operator}'; a range takes ${RANGE_OPERATORS.join(', ')}` },
        ];
      const bound = condition[operator];
      return typeof bound === 'number' || typeof bound === 'string'
        ? []
        : [{ path: [field, operator], message: `${operator} takes a number or a text (e.g. a date)` }];
    });
  }
  return [{ path: [field], message: 'takes a value, a list of values, or a range such as { gte: 200000 }' }];
}

/** Every problem of a `where` as read from the file (a plain value), or [] when it is one. */
export function whereProblems(value: unknown): WhereProblem[] {
  if (!isRecord(value))
    return [{ path: [], message: 'where takes field names, each with a value, a list or a range, e.g. { City: Evanston }' }];
  const fields = Object.keys(value);
  if (fields.length === 0) return [{ path: [], message: 'an empty where matches every record; leave it out instead' }];
  return fields.flatMap((field) => conditionProblems(field, value[field]));
}

/** A number when both sides read as numbers (a feed's "250000" equals 250000), else undefined. */
function numeric(a: unknown, b: unknown): [number, number] | undefined {
  const toNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
  const [x, y] = [toNumber(a), toNumber(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : undefined;
}

function compare(actual: unknown, bound: string | number): number | undefined {
  const numbers = numeric(actual, bound);
  if (numbers !== undefined) return numbers[0] - numbers[1];
  // Why text order otherwise: ISO dates and times (the RESO form) sort as text.
  if (typeof actual !== 'string') return undefined;
  return actual < String(bound) ? -1 : actual > String(bound) ? 1 : 0;
}

function equals(actual: unknown, expected: WhereScalar): boolean {
  if (actual === expected) return true;
  const numbers = numeric(actual, expected);
  if (numbers !== undefined) return numbers[0] === numbers[1];
  return (typeof actual === 'string' || typeof actual === 'boolean') && String(actual) === String(expected);
}

function inRange(actual: unknown, range: WhereRange): boolean {
  return RANGE_OPERATORS.every((operator) => {
    const bound = range[operator];
    if (bound === undefined) return true;
    const order = compare(actual, bound);
    if (order === undefined) return false;
    return operator === 'gte' ? order >= 0 : operator === 'lte' ? order <= 0 : operator === 'gt' ? order > 0 : order < 0;
  });
}

function valueMatches(actual: unknown, condition: WhereCondition): boolean {
  if (Array.isArray(condition)) return condition.some((expected) => equals(actual, expected));
  if (typeof condition === 'object') return inRange(actual, condition);
  return equals(actual, condition);
}

/**
 * Whether one field's value matches its condition. An absent or empty value matches nothing; a
 * value holding a list (a RESO collection) matches when one of its items does.
 */
export function fieldMatches(actual: unknown, condition: WhereCondition): boolean {
  if (actual === undefined || actual === null || actual === '') return false;
  return Array.isArray(actual) ? actual.some((item) => valueMatches(item, condition)) : valueMatches(actual, condition);
}

/**
 * Whether `record` (a source record, by the source's field names) matches every field of `where`.
 * A field the record lacks (or holds empty) matches nothing; a field holding a list (a RESO
 * collection) matches when one of its items does.
 */
export function matchesWhere(record: Readonly<Record<string, unknown>>, where: Where): boolean {
  return Object.entries(where).every(([field, condition]) => fieldMatches(record[field], condition));
}

/** The fields a `where` reads (a run can refuse a filter on a field its source's records never carry). */
export function whereFields(where: Where): string[] {
  return Object.keys(where);
}
