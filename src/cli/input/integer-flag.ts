/** One parser for integer-valued flags, so every command words the refusal the same way. */
import { UsageError } from '../../shared/errors.js';

/** `value` as an integer in [min, max]; undefined when the flag was not given; a UsageError naming `--flag` otherwise. */
export function integerFlag(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max} (got '${value}')`);
  return n;
}
