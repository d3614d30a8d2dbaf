/**
 * The field-wipe guard, beside the delete guard: a feed whose shape changed overnight (a column
 * renamed, dropped, or empty on every row) must not blank a field on every listing. A plan that
 * would empty a field on more than --max-wipes of the listings that hold it is refused like a
 * mass delete, unless that field is allowed (--allow-wipe) or the run is forced.
 */
import { UsageError } from '../shared/errors.js';
import { showSample, type FieldWipe } from './field-changes.js';
import { count, plural } from '../shared/counts.js';
import { percentText, type GuardLimit } from './guard-limit.js';
import { LISTING_FIELD_NAMES, type ListingFieldName } from './listing.js';

/** --max-wipes by default: 10% of the listings that hold the field. */
export const DEFAULT_MAX_WIPES: GuardLimit = { kind: 'percent', value: 10 };
/**
 * Fewest wipes of one field a percentage refuses. Why: on a small chatbot 10% is one or two
 * listings, and a few prices taken off the market overnight are a normal night, not a feed
 * that changed shape.
 */
export const WIPE_HANDFUL = 5;

export interface WipeLimits {
  maxWipes: GuardLimit;
  /** Fields whose wipes the run accepts (--allow-wipe), in write-shape spelling. */
  allowWipe: readonly string[];
}

export const DEFAULT_WIPE_LIMITS: WipeLimits = { maxWipes: DEFAULT_MAX_WIPES, allowWipe: [] };

/** refused: over the limit; allowed: over it, but the field is in --allow-wipe; within: under the limit. */
export type WipeVerdict = 'refused' | 'allowed' | 'within';

export interface JudgedWipe extends FieldWipe {
  verdict: WipeVerdict;
}

function overLimit(wipe: FieldWipe, limit: GuardLimit): boolean {
  if (limit.kind === 'count') return wipe.count > limit.value;
  return wipe.count >= WIPE_HANDFUL && wipe.count > (wipe.holders * limit.value) / 100;
}

function limitText(limit: GuardLimit, holders: number): string {
  if (limit.kind === 'count') return `--max-wipes ${limit.value}`;
  return `--max-wipes ${limit.value}% (${count(Math.floor((holders * limit.value) / 100))})`;
}

function wipeReason(wipe: FieldWipe, limit: GuardLimit): string {
  const share = percentText((wipe.count / Math.max(wipe.holders, 1)) * 100);
  const samples = wipe.samples.map(showSample).join('; ');
  return (
    `The plan would empty ${wipe.field} on ${plural(wipe.count, 'listing')} of the ${count(wipe.holders)} that ` +
    `hold it (${share}%), more than ${limitText(limit, wipe.holders)}, e.g. ${samples}. Check the feed; if it is ` +
    `right, rerun with --allow-wipe ${wipe.field} or --force.`
  );
}

/** Each wipe with its verdict, and one refusal reason per refused field (naming its count, samples and the override). */
export function judgeWipes(
  wipes: readonly FieldWipe[],
  limits: WipeLimits = DEFAULT_WIPE_LIMITS,
): { judged: JudgedWipe[]; reasons: string[] } {
  const reasons: string[] = [];
  const judged = wipes.map((wipe): JudgedWipe => {
    if (!overLimit(wipe, limits.maxWipes)) return { ...wipe, verdict: 'within' };
    if (limits.allowWipe.includes(wipe.field)) return { ...wipe, verdict: 'allowed' };
    reasons.push(wipeReason(wipe, limits.maxWipes));
    return { ...wipe, verdict: 'refused' };
  });
  return { judged, reasons };
}

const BY_LOWER_NAME: ReadonlyMap<string, ListingFieldName> = new Map(LISTING_FIELD_NAMES.map((field) => [field.toLowerCase(), field]));

/** The names of --allow-wipe as typed: repeated flags and comma lists, trimmed, blanks dropped. */
function namesOf(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** Why --allow-wipe `values` cannot be taken (names that are no listing field), or undefined when they can. */
export function allowWipeProblem(values: readonly string[]): string | undefined {
  const unknown = namesOf(values).filter((name) => !BY_LOWER_NAME.has(name.toLowerCase()));
  if (unknown.length === 0) return undefined;
  return `names no listing field: ${unknown.join(', ')}; the fields are ${LISTING_FIELD_NAMES.join(', ')}`;
}

/**
 * --allow-wipe as typed (repeated and/or comma lists, any case) → write-shape field names, each
 * once. Throws UsageError naming an unknown field and listing the fields there are.
 */
export function parseAllowWipe(values: readonly string[]): ListingFieldName[] {
  const problem = allowWipeProblem(values);
  if (problem !== undefined) throw new UsageError(`--allow-wipe ${problem}`, { flag: '--allow-wipe', value: values.join(',') });
  const fields: ListingFieldName[] = [];
  for (const name of namesOf(values)) {
    const field = BY_LOWER_NAME.get(name.toLowerCase()) as ListingFieldName;
    if (!fields.includes(field)) fields.push(field);
  }
  return fields;
}
