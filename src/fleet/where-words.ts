/**
 * A chatbot's `where` as an operator reads it on the fleet page and in `schedule list`:
 * `ListOfficeMlsId is ACME1 or ACME2; ListPrice ≥ 200,000`. Field names stay the source's own
 * (they are what the operator wrote in fleet.yaml); numbers are grouped by thousands.
 */
import { type RangeOperator, type Where, type WhereCondition, type WhereScalar } from '../domain/where.js';

const SIGNS: Readonly<Record<RangeOperator, string>> = { gte: '≥', lte: '≤', gt: '>', lt: '<' };
/** Why this order: a range reads lower bound first ("> 100,000 and ≤ 500,000"). */
const READING_ORDER: readonly RangeOperator[] = ['gte', 'gt', 'lte', 'lt'];

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** A value as written, a number grouped by thousands (200000 → 200,000). */
function valueText(value: WhereScalar): string {
  return typeof value === 'number' ? numberFormat.format(value) : String(value);
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
