/**
 * Types `--set Field=value` pairs by the target schema's field types (api-spec 2.1): numbers for
 * integer fields, 'true'/'false' for booleans, the text as-is for strings. The typed object is then
 * validated with the same schema (integers, rgb colours) by validateInput, before any request.
 */
import type { z } from 'zod';
import { ListingSyncError, UsageError } from '../../shared/errors.js';
import { didYouMean } from '../../shared/nearest-names.js';

export type JsonKind = 'string' | 'number' | 'boolean' | 'other';
export type SetValue = string | number | boolean;

/** The JSON kind a field's schema accepts, looking through optional/default/nullable wrappers. */
export function jsonKindOf(schema: z.core.$ZodType): JsonKind {
  let current: z.core.$ZodType = schema;
  for (let depth = 0; depth < 10; depth += 1) {
    const def = current._zod.def;
    if (def.type === 'string' || def.type === 'number' || def.type === 'boolean') return def.type;
    if (!('innerType' in def)) return 'other';
    current = def.innerType as z.core.$ZodType;
  }
  return 'other';
}

function typeValue(field: string, kind: JsonKind, text: string): SetValue {
  if (kind === 'boolean') {
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new ListingSyncError('INVALID_INPUT', `--set ${field}=${text}: ${field} must be true or false`);
  }
  if (kind === 'number') {
    if (!/^\s*-?\d+(\.\d+)?\s*$/.test(text)) {
      throw new ListingSyncError('INVALID_INPUT', `--set ${field}=${text}: ${field} must be a whole number (e.g. --set ${field}=1)`);
    }
    return Number(text);
  }
  return text;
}

/**
 * Turns ['Name=Bot', 'Temperature=1'] into { Name: 'Bot', Temperature: 1 } using `shape`'s field kinds.
 * Fields in `reserved` (set by other flags, e.g. serialNumber by --chatbot) are refused.
 */
export function parseSetValues(
  pairs: readonly string[],
  shape: Readonly<Record<string, z.core.$ZodType>>,
  reserved: Readonly<Record<string, string>> = {},
): Record<string, SetValue> {
  const valid = Object.keys(shape).filter((name) => !(name in reserved));
  const result: Record<string, SetValue> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set expects Field=value (got '${pair}')`);
    const field = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1);
    const flag = reserved[field];
    if (flag !== undefined) throw new UsageError(`--set ${field}: ${field} is given by ${flag}, not --set`);
    const schema = shape[field];
    if (schema === undefined) {
      const hint = didYouMean(field, valid) || ` (valid fields: ${valid.join(', ')})`;
      throw new ListingSyncError('INVALID_INPUT', `unknown field '${field}'${hint}`);
    }
    if (field in result) throw new UsageError(`--set ${field} is given more than once`);
    result[field] = typeValue(field, jsonKindOf(schema), text);
  }
  return result;
}
