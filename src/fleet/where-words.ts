/**
 * A chatbot's `where` as an operator reads it on the fleet page and in `schedule list`:
 * `ListOfficeMlsId is ACME1 or ACME2; ListPrice ≥ 200,000`. Field names stay the source's own
 * (they are what the operator wrote in fleet.yaml); numbers are grouped by thousands.
 */
import { type RangeOperator, type Where, type WhereCondition, type WhereScalar } from '../domain/where.js';

const SIGNS: Readonly<Record<RangeOperator, string>> = { gte: '≥', lte: '≤', gt: '>', lt: '<' };
/** Why this order: a range reads lower bound first ("> 100,000 and ≤ 500,000"). */
const READING_ORDER: readonly RangeOperator[] = ['gte', 'gt', 'lte', 'lt'];

/**
 * Made on first use. Why not at load: building an Intl.NumberFormat costs about 15 ms of ICU
 * set-up, and every command loads this module (the CLI is one bundle) while few print a filter.
 */
let numberFormat: Intl.NumberFormat | undefined;

/** A value as written, a number grouped by thousands (200000 → 200,000). */
function valueText(value: WhereScalar): string {
  if (typeof value !== 'number') return String(value);
  numberFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
  return numberFormat.format(value);
}

function conditionText(field: string, condition: WhereCondition): string {
  if (Array.isArray(condition)) return `${field} is ${condition.map(valueText).join(' or ')}`;
  if (typeof condition === 'object') {
    const bounds = READING_ORDER.flatMap((operator) => {
      const bound = condition[operator];
      return bound === undefined ? [] : [`${SIGNS[operator]} ${valueText(bound)}`];
    });
    return `${field} ${bounds.join(' and ')}`;
  }
  return `${field} is ${valueText(condition)}`;
}

/** The filter in words, one clause per field joined by "; "; undefined when there is no filter (every record). */
export function whereInWords(where: Where | undefined): string | undefined {
  if (where === undefined) return undefined;
  const clauses = Object.entries(where).map(([field, condition]) => conditionText(field, condition));
  return clauses.length === 0 ? undefined : clauses.join('; ');
}
