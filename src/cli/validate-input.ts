/**
 * Validates user input (a --file's JSON, --set values) against an API schema BEFORE any request,
 * and turns zod's issues into one line a person can act on: field, what is wrong, what was given.
 */
import type { z } from 'zod';
import { ListingSyncError } from '../errors.js';
import { didYouMean } from './nearest-names.js';

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const EXPECTED_WORDS: Readonly<Record<string, string>> = {
  int: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'a string',
  array: 'a list',
  object: 'an object',
};

/** Allowed values of a union of literals (SyncSiteMapDays), read from its branches' issues. */
function unionValues(issue: Issue): unknown[] | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const values = issue.errors.flatMap((branch) => branch.flatMap((inner) => (inner.code === 'invalid_value' ? inner.values : [undefined])));
  return values.length > 0 && values.every((v) => v !== undefined) ? values : undefined;
}

function describeIssue(issue: Issue, input: unknown, knownFields: readonly string[]): string[] {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const valid = issue.path.length === 0 ? knownFields : [];
    return issue.keys.map((key) => `unknown field '${where === '' ? key : `${where}.${key}`}'${didYouMean(key, valid)}`);
  }
  const value = valueAt(input, issue.path);
  const got = value === undefined ? '' : ` (got ${shown(value)})`;
  if (issue.code === 'custom') return [`${issue.message}${got}`];
  const allowed = issue.code === 'invalid_value' ? issue.values : unionValues(issue);
  const choices = allowed === undefined ? undefined : `one of ${allowed.map((v) => shown(v)).join(', ')}`;
  if (value === undefined && issue.code !== 'too_small' && issue.code !== 'too_big') {
    return [`${where} is required${choices === undefined ? '' : ` (${choices})`}`];
  }
  let reason = issue.message;
  if (issue.code === 'invalid_type') reason = `must be ${EXPECTED_WORDS[issue.expected] ?? issue.expected}`;
  if (choices !== undefined) reason = `must be ${choices}`;
  return [`${where === '' ? 'value' : where} ${reason}${got}`];
}

/** Every problem of a failed parse, each as "Field reason (got …)". */
export function describeIssues(issues: readonly Issue[], input: unknown, knownFields: readonly string[] = []): string[] {
  return issues.flatMap((issue) => describeIssue(issue, input, knownFields));
}

/**
 * Parses `input` with `schema` or throws INVALID_INPUT (exit 2) with every problem on one line:
 * "<what>: Temperature must be a whole number (got 1.5); unknown field 'Colour' (did you mean …?)".
 */
export function validateInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  knownFields: readonly string[] = [],
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ListingSyncError('INVALID_INPUT', `${what}: ${describeIssues(parsed.error.issues, input, knownFields).join('; ')}`);
}
