/**
 * Checks for command option values, each failing with one UsageError line (exit 2) that names the
 * flag, says what it wants and shows what it got. Used instead of commander's requiredOption and
 * choices, whose errors span two lines and do not say how to fix.
 */
import { UsageError } from '../../shared/errors.js';

/** The value of a required option, or a UsageError naming it. */
export function required(value: string | undefined, flag: string, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required (${what})`);
  return value.trim();
}

/** A whole number ≥ min from an option, or undefined when the option is absent. */
export function wholeNumber(value: string | undefined, flag: string, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min)
    throw new UsageError(`${flag} must be a whole number of at least ${min} (got '${value}')`);
  return n;
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration such as `90s`, `10m`, `2h`, `500ms` (a bare number is seconds), in milliseconds. */
export function durationMs(value: string, flag: string): number {
  const match = DURATION.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} must be a duration such as 90s, 10m or 2h (got '${value}')`);
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 1000));
}

/** One of `allowed` (exact spelling), or a UsageError listing them. */
export function allowedValue<T extends string>(value: string, flag: string, allowed: readonly T[]): T {
  const found = allowed.find((item) => item === value);
  if (found === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
  return found;
}

/** Commander collector for repeatable options (`--set A=1 --set B=2`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The chatbot id: --chatbot wins, else the input file's own field, else a UsageError. */
export function chatbotFrom(flag: string | undefined, fromFile: unknown, fileField: string): string {
  if (flag !== undefined && flag.trim() !== '') return flag.trim();
  if (typeof fromFile === 'string' && fromFile.trim() !== '') return fromFile.trim();
  throw new UsageError(`--chatbot is required (the chatbot's serial number), unless the file sets ${fileField}`);
}

/** A JSON file's top-level object, or a UsageError naming the file. */
export function asObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${path} must hold one JSON object`);
  return value as Record<string, unknown>;
}
