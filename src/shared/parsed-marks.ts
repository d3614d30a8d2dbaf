/**
 * Remembers which objects are the output of a schema's parse in this process, so the same
 * object is not validated again on its way out. Why: a create job's listing is parsed as job
 * data (jobs/create-listing.ts), then the API client validated it once more before sending it,
 * every listing; bench:sync measures the CLI's CPU per listing.
 *
 * Why this is safe: only a schema's own output is marked, and the listing schemas only trim
 * strings and drop unknown keys, so parsing their output again changes nothing. Marks are by
 * object identity (a WeakMap): a caller that builds a new object (an update's `{...listing, Key}`)
 * is validated as before, and the mark goes with the object.
 */
import type { z } from 'zod';

const marks = new WeakMap<object, z.ZodType>();

/** Marks `value` as `schema`'s parse output; returns it. */
export function markParsed<T extends object>(schema: z.ZodType, value: T): T {
  marks.set(value, schema);
  return value;
}

/** Whether `value` is marked as `schema`'s parse output. */
export function isParsedBy(schema: z.ZodType, value: unknown): boolean {
  return typeof value === 'object' && value !== null && marks.get(value) === schema;
}
