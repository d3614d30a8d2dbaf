/**
 * Validates user input (a --file's JSON, --set values) against an API schema BEFORE any request,
 * and turns zod's issues into one line a person can act on (src/shared/zod-issues.ts `explainIssues`).
 */
import type { z } from 'zod';
import { ListingSyncError } from '../../shared/errors.js';
import { explainIssues } from '../../shared/zod-issues.js';

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
  throw new ListingSyncError('INVALID_INPUT', `${what}: ${explainIssues(parsed.error.issues, input, knownFields).join('; ')}`);
}
