/**
 * Turns zod issues into one sentence a person understands, e.g.
 * "Status: must be one of Active, PreOnMarket, Sold (got 'Pending')". The simulator answers
 * validation failures with it, so client error reports show what a real service would say.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

export type Validated<T> = { ok: true; value: T } | { ok: false; message: string };

/** Parses `input` with `schema`; on failure, a readable message naming every bad field. */
export function validate<T extends z.ZodType>(schema: T, input: unknown): Validated<z.infer<T>> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, message: result.error.issues.map(describeIssue).join('; ') };
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return 'body';
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
}

function shown(input: unknown): string {
  if (typeof input === 'string') return `'${input.length > 60 ? `${input.slice(0, 60)}…` : input}'`;
  if (Array.isArray(input)) return 'an array';
  if (input === null) return 'null';
  if (typeof input === 'object') return 'an object';
  return String(input);
}

function hasInput(issue: Issue): boolean {
  return 'input' in issue && issue.input !== undefined;
}

/** Literal values of a union of literals (SyncSiteMapDays), when that is all the union holds. */
function unionLiterals(issue: Issue): unknown[] | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    const only = branch.length === 1 ? branch[0] : undefined;
    if (only?.code !== 'invalid_value') return undefined;
    values.push(...only.values);
  }
  return values;
}

function listed(values: readonly unknown[]): string {
  return values.map(String).join(', ');
}

function describeProblem(issue: Issue): string {
  const got = hasInput(issue) ? ` (got ${shown(issue.input)})` : '';
  const literals = unionLiterals(issue);
  if (literals) return hasInput(issue) ? `must be one of ${listed(literals)}${got}` : `is required (one of ${listed(literals)})`;
  switch (issue.code) {
    case 'invalid_value':
      return hasInput(issue) ? `must be one of ${listed(issue.values)}${got}` : `is required (one of ${listed(issue.values)})`;
    case 'invalid_type':
      return hasInput(issue) ? `must be ${issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}${got}` : 'is required';
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must hold at least ${String(issue.minimum)} item(s)`;
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}${got}`;
    case 'too_big':
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${got}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return `${issue.message}${got}`;
  }
}

function describeIssue(issue: Issue): string {
  // Why: a custom issue (rule 4.4.1) already names its field in its message.
  if (issue.code === 'custom') return issue.message;
  return `${pathText(issue.path)}: ${describeProblem(issue)}`;
}
