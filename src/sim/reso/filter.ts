/**
 * The $filter subset a replication client needs, and nothing more: comparisons of a resource's
 * filterable fields joined by `and` and `or` (OData precedence: `and` binds tighter; parentheses
 * allowed), plus `in (...)` where a field allows it. Real MLS servers refuse what they do not
 * index; so does this one, with a 400 that names what it accepts, so a client never mistakes an
 * unsupported filter for an empty result.
 */
import { compareInstants, parseInstant, type Instant } from './instant.js';

export const COMPARE_OPS = ['eq', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];
export type FilterOp = CompareOp | 'in';

/** What a resource lets a client filter on: the field's value kind and its operators. */
export interface FilterField {
  kind: 'timestamp' | 'string' | 'number';
  ops: ReadonlySet<FilterOp>;
}
export type FilterFields = Readonly<Record<string, FilterField>>;

export type FilterValue = { kind: 'timestamp'; instant: Instant } | { kind: 'string'; text: string } | { kind: 'number'; value: number };
export type Condition = { field: string; op: CompareOp; value: FilterValue } | { field: string; op: 'in'; values: string[] };
/** A parsed $filter: conditions joined by `and` / `or` (each a list of at least one operand). */
export type FilterExpr = Condition | { op: 'and' | 'or'; items: FilterExpr[] };

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

type Token = { kind: 'word'; text: string } | { kind: 'string'; text: string } | { kind: 'punct'; text: '(' | ')' | ',' };

class FilterSyntaxError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (/\s/.test(char)) at += 1;
    else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ kind: 'punct', text: char });
      at += 1;
    } else if (char === "'") {
      let value = '';
      at += 1;
      for (;;) {
        if (at >= text.length) throw new FilterSyntaxError('a string literal is not closed');
        const next = text.charAt(at);
        // OData escapes a quote inside a string by doubling it.
        if (next === "'" && text.charAt(at + 1) === "'") {
          value += "'";
          at += 2;
        } else if (next === "'") {
          at += 1;
          break;
        } else {
          value += next;
          at += 1;
        }
      }
      tokens.push({ kind: 'string', text: value });
    } else {
      const word = /^[^\s(),']+/.exec(text.slice(at));
      if (word === null) throw new FilterSyntaxError(`unexpected '${char}'`);
      tokens.push({ kind: 'word', text: word[0] });
      at += word[0].length;
    }
  }
  return tokens;
}

class FilterParser {
  private at = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly fields: FilterFields,
  ) {}

  parse(): FilterExpr {
    const expr = this.disjunction();
    const rest = this.tokens[this.at];
    if (rest !== undefined) throw new FilterSyntaxError(`unexpected '${rest.text}' after a complete condition`);
    return expr;
  }

  private disjunction(): FilterExpr {
    const items = [this.conjunction()];
    while (this.nextWord('or')) items.push(this.conjunction());
    return items.length === 1 ? (items[0] as FilterExpr) : { op: 'or', items };
  }

  private conjunction(): FilterExpr {
    const items = [this.term()];
    while (this.nextWord('and')) items.push(this.term());
    return items.length === 1 ? (items[0] as FilterExpr) : { op: 'and', items };
  }

  /** Consumes the word `word` when it comes next. */
  private nextWord(word: 'and' | 'or'): boolean {
    const next = this.tokens[this.at];
    if (next?.kind !== 'word' || next.text !== word) return false;
    this.at += 1;
    return true;
  }

  private term(): FilterExpr {
    const first = this.take('a condition');
    if (first.kind === 'punct' && first.text === '(') {
      const inner = this.disjunction();
      this.expect(')');
      return inner;
    }
    if (first.kind !== 'word') throw new FilterSyntaxError(`expected a field name, got '${first.text}'`);
    const spec = this.fields[first.text];
    const after = this.tokens[this.at];
    if (after?.kind === 'punct' && after.text === '(') throw new FilterSyntaxError(`functions such as ${first.text}() are not supported`);
    if (spec === undefined)
      throw new FilterSyntaxError(`cannot filter on '${first.text}' (filterable: ${Object.keys(this.fields).join(', ')})`);
    const opToken = this.take(`an operator after ${first.text}`);
    const op = opToken.text;
    if (opToken.kind !== 'word' || !spec.ops.has(op as FilterOp)) {
      throw new FilterSyntaxError(`${first.text} supports ${[...spec.ops].join(', ')} (got '${op}')`);
    }
    if (op === 'in') return { field: first.text, op: 'in', values: this.list(first.text, spec) };
    return { field: first.text, op: op as CompareOp, value: this.literal(first.text, spec) };
  }

  private list(field: string, spec: FilterField): string[] {
    this.expect('(');
    const values: string[] = [];
    for (;;) {
      const value = this.literal(field, spec);
      if (value.kind === 'string') values.push(value.text);
      const next = this.take("',' or ')'");
      if (next.kind === 'punct' && next.text === ')') return values;
      if (next.kind !== 'punct' || next.text !== ',') throw new FilterSyntaxError(`expected ',' or ')' in the list, got '${next.text}'`);
    }
  }

  private literal(field: string, spec: FilterField): FilterValue {
    const token = this.take(`a value for ${field}`);
    if (spec.kind === 'string') {
      if (token.kind !== 'string')
        throw new FilterSyntaxError(`${field} compares with a quoted string like '${field}-1' (got ${token.text})`);
      return { kind: 'string', text: token.text };
    }
    // Int64 fields (EntityEventSequence): an unquoted integer, or quoted as the RESO reference server also accepts.
    if (spec.kind === 'number') {
      if (!/^\d{1,15}$/.test(token.text)) throw new FilterSyntaxError(`${field} compares with a whole number like 42 (got ${token.text})`);
      return { kind: 'number', value: Number(token.text) };
    }
    const instant = token.kind === 'word' ? parseInstant(token.text) : undefined;
    if (instant === undefined) {
      const shown = token.kind === 'string' ? `'${token.text}' (quoted)` : `'${token.text}'`;
      throw new FilterSyntaxError(`${field} compares with an unquoted DateTimeOffset like 2024-05-01T12:00:00.000Z (got ${shown})`);
    }
    return { kind: 'timestamp', instant };
  }

  private take(what: string): Token {
    const token = this.tokens[this.at];
    if (token === undefined) throw new FilterSyntaxError(`expected ${what}, got the end`);
    if (token.kind === 'word' && token.text === 'not') {
      throw new FilterSyntaxError(`'not' is not supported (only comparisons joined by 'and' and 'or')`);
    }
    this.at += 1;
    return token;
  }

  private expect(text: '(' | ')'): void {
    const token = this.take(`'${text}'`);
    if (token.kind !== 'punct' || token.text !== text) throw new FilterSyntaxError(`expected '${text}', got '${token.text}'`);
  }
}

/** Parses a $filter value against a resource's filterable fields. */
export function parseFilter(text: string, fields: FilterFields): Parsed<FilterExpr> {
  try {
    const tokens = tokenize(text);
    if (tokens.length === 0) return { ok: false, message: '$filter is empty' };
    return { ok: true, value: new FilterParser(tokens, fields).parse() };
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { ok: false, message: `$filter: ${error.message}` };
    throw error;
  }
}

/** Code-unit order, as OData compares strings (and as keys sort). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function holds(op: CompareOp, order: number): boolean {
  switch (op) {
    case 'eq':
      return order === 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
}

function holdsCondition(condition: Condition, read: (field: string) => string | number): boolean {
  const actual = read(condition.field);
  if (condition.op === 'in') return condition.values.includes(String(actual));
  const { value } = condition;
  const order =
    value.kind === 'timestamp'
      ? compareInstants({ ms: Number(actual), ticks: 0 }, value.instant)
      : value.kind === 'number'
        ? Math.sign(Number(actual) - value.value)
        : compareText(String(actual), value.text);
  return holds(condition.op, order);
}

/**
 * Whether a row meets the filter (undefined: every row does). `read` gives a field's value: epoch
 * ms for timestamp fields, text for string fields.
 */
export function matches(filter: FilterExpr | undefined, read: (field: string) => string | number): boolean {
  if (filter === undefined) return true;
  if ('items' in filter)
    return filter.op === 'and' ? filter.items.every((item) => matches(item, read)) : filter.items.some((item) => matches(item, read));
  return holdsCondition(filter, read);
}
