/**
 * The one place zod issues become text. Two forms:
 * - `issueLines`: "path: zod's message", for logs and errors about data a program wrote (an API
 *   answer, a job's payload, a stored request, a mapping file's sections);
 * - `explainIssues`: "Field must be a whole number (got 1.5)", for what a person typed (a --file's
 *   JSON, --set values), with "did you mean" for unknown fields.
 */
import type { z } from 'zod';
import { didYouMean } from './nearest-names.js';

export type Issue = z.core.$ZodIssue;

export interface IssueLineOptions {
  /** Path segments the issue's path is inside (the member or section the parsed value came from). */
  prefix?: readonly PropertyKey[];
  /** What an issue about the whole value is called; '' leaves the path empty. */
  whole?: string;
  /** Array indexes as `items[2]` rather than `items.2`. */
  brackets?: boolean;
}

/** An issue's path as text: `a.b.2`, or `a.b[2]` with `brackets`; `whole` when it is empty. */
export function issuePath(path: readonly PropertyKey[], options: IssueLineOptions = {}): string {
  const parts = [...(options.prefix ?? []), ...path];
  const text = options.brackets
    ? parts
        .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
        .filter((p) => p !== '')
        .join('.')
        .replace(/\.\[/g, '[')
    : parts.map(String).join('.');
  return text === '' ? (options.whole ?? '') : text;
}

/** "path: message" for every issue. */
export function issueLines(issues: readonly Issue[], options: IssueLineOptions = {}): string[] {
  return issues.map((issue) => `${issuePath(issue.path, options)}: ${issue.message}`);
}

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

function explainIssue(issue: Issue, input: unknown, knownFields: readonly string[]): string[] {
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

/** Every problem of a failed parse of `input`, each as "Field reason (got …)"; `knownFields` feed "did you mean". */
export function explainIssues(issues: readonly Issue[], input: unknown, knownFields: readonly string[] = []): string[] {
  return issues.flatMap((issue) => explainIssue(issue, input, knownFields));
}
