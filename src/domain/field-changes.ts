/**
 * What a plan changes, per field: how many listings, with the first three as samples (key,
 * before → after), and which changes would empty a value the chatbot holds today (a wipe).
 * The planner feeds it only the listings that change, so a run of unchanged listings costs
 * nothing here; what needs the whole remote (how many listings hold a wiped field) is counted
 * once, at the end, and only for fields with a wipe.
 */
import { LISTING_FIELD_NAMES, type ListingFieldName } from './listing.js';
import { compareText } from './id-order.js';
import type { FieldChange } from './plan.js';
import type { RemoteRows } from './snapshot/remote.js';

/**
 * Samples kept per field: enough to recognise the change, bounded whatever the plan's size. The
 * ones with the first keys (code-unit order), so the samples do not depend on the feed's row order.
 */
export const SAMPLES_KEPT = 3;

export interface ChangeSample {
  key: string;
  /** Before (what the chatbot shows); absent means no value. */
  from?: unknown;
  /** After (what the plan writes); absent means no value. */
  to?: unknown;
  /** The feed had no value and the field's default was filled in (a wipe sample only). */
  filled?: boolean;
  /** The field is one the service's read did not show: `from` is unknown, not empty. */
  notReadBack?: boolean;
}

/**
 * Change entry of an update caused by the ledger hash when its entry names no field: written
 * before the ledger kept field digests, or a field whose digest happened to match (hash.ts).
 */
export const HIDDEN_FIELDS_CHANGE = '(fields not read back: which unknown)';

/** The sample of a HIDDEN_FIELDS_CHANGE: no field, so no value to show. */
const UNNAMED_SAMPLE = { from: 'not read back', to: 'changed (which field unknown)' } as const;

/** How many listings a plan changes in one field, and the first SAMPLES_KEPT of them. */
export interface FieldTally {
  field: string;
  count: number;
  samples: ChangeSample[];
  /**
   * Changes of a field the service's read did not show, found against what this tool last sent
   * (the ledger's field digests): listed after the fields the read compared.
   */
  notReadBack?: boolean;
}

/** A field the plan would empty on listings that hold a value today. */
export interface FieldWipe extends FieldTally {
  /** Listings the feed matched (updated or unchanged) that hold a value for the field today. */
  holders: number;
}

/** Position of each write-shape field: the order tallies are reported in, and its bit in a filled mask. */
const FIELD_POSITION: ReadonlyMap<string, number> = new Map(LISTING_FIELD_NAMES.map((field, position) => [field, position]));

/**
 * The bit of `field` in a filled mask (a row's fields that fell back to their default): one bit
 * per write-shape field (32 of them), so a row carries one number instead of a list.
 */
export function filledBit(field: ListingFieldName): number {
  const position = FIELD_POSITION.get(field);
  if (position === undefined || position > 31) throw new Error(`filledBit: no bit for field ${field}`);
  return 1 << position;
}

function isFilled(mask: number, field: string): boolean {
  if (mask === 0) return false;
  const position = FIELD_POSITION.get(field);
  return position !== undefined && (mask & (1 << position)) !== 0;
}

/** No value: undefined, null, blank text or an empty list. A 0 is a value (a studio has 0 bedrooms). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

const MAX_SHOWN = 40;

/** A value for people: "(empty)", numbers and text as they are (long text cut), lists by size. */
export function showFieldValue(value: unknown): string {
  if (isEmptyValue(value)) return '(empty)';
  if (Array.isArray(value)) return `[${value.length} ${value.length === 1 ? 'item' : 'items'}]`;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** "KEY before → after" (with "(default)" when the after was filled in); "KEY now after" when the before was never read back. */
export function showSample(sample: ChangeSample): string {
  if (sample.notReadBack === true) return `${sample.key} now ${showFieldValue(sample.to)}`;
  return `${sample.key} ${showFieldValue(sample.from)} → ${showFieldValue(sample.to)}${sample.filled ? ' (default)' : ''}`;
}

/** Per-field counts with their first samples. */
class Tallies {
  private readonly byField = new Map<string, FieldTally>();

  add(field: string, sample: ChangeSample): void {
    const tally = this.byField.get(field);
    if (tally === undefined) {
      this.byField.set(field, { field, count: 1, samples: [sample] });
      return;
    }
    tally.count += 1;
    const { samples } = tally;
    if (samples.length === SAMPLES_KEPT && compareText(sample.key, (samples[SAMPLES_KEPT - 1] as ChangeSample).key) >= 0) return;
    // At most SAMPLES_KEPT long, kept in key order: an insertion, rarely past the first few listings.
    let at = samples.length;
    while (at > 0 && compareText(sample.key, (samples[at - 1] as ChangeSample).key) < 0) at -= 1;
    samples.splice(at, 0, sample);
    if (samples.length > SAMPLES_KEPT) samples.pop();
  }

  get fields(): string[] {
    return [...this.byField.keys()];
  }

  /** In write-shape field order; the planner's own entries ("(retry)", HIDDEN_FIELDS_CHANGE) last. */
  list(): FieldTally[] {
    const order = (field: string): number => FIELD_POSITION.get(field) ?? FIELD_POSITION.size;
    return [...this.byField.values()].sort((a, b) => order(a.field) - order(b.field));
  }
}

export interface FieldChangeCounter {
  /**
   * One listing's changes. `filled`: the mask of its fields whose feed value was the default
   * filled in (FeedRow.filled). A change that empties a held value, or fills a default over
   * one, is a wipe: a feed that explicitly says 0 bedrooms is not. `instructed`: the mask of its
   * fields the record's display flags blank (FeedRow.instructed): emptying one is the MLS's
   * instruction, not a feed that changed shape, so it is a display blank, never a wipe.
   */
  changed(key: string, changes: readonly FieldChange[], filled: number, instructed?: number): void;
  /** The fields with at least one wipe (what `finish` needs holders for). */
  wipedFields(): string[];
  /** Per-field changes, wipes with `holders(field)` for each wiped field, and the display blanks. */
  finish(holders: ReadonlyMap<string, number>): { changes: FieldTally[]; wipes: FieldWipe[]; displayBlanks: FieldTally[] };
}

export function fieldChangeCounter(): FieldChangeCounter {
  const changes = new Tallies();
  const notReadBack = new Tallies();
  const wipes = new Tallies();
  const blanks = new Tallies();
  return {
    changed(key, list, filled, instructed = 0) {
      for (const { field, from, to, notReadBack: unseen } of list) {
        if (unseen === true) {
          // Why never a wipe: what the chatbot holds for the field is unknown, so emptying it cannot be told from leaving it empty.
          notReadBack.add(field, field === HIDDEN_FIELDS_CHANGE ? { key, ...UNNAMED_SAMPLE } : { key, to, notReadBack: true });
          continue;
        }
        changes.add(field, { key, from, to });
        if (isEmptyValue(from) || !FIELD_POSITION.has(field)) continue;
        if (isEmptyValue(to) && isFilled(instructed, field)) blanks.add(field, { key, from, to });
        else if (isFilled(filled, field)) wipes.add(field, { key, from, to, filled: true });
        else if (isEmptyValue(to)) wipes.add(field, { key, from, to });
      }
    },
    wipedFields: () => wipes.fields,
    finish(holders) {
      const wiped = wipes.list().map((tally) => ({ ...tally, holders: Math.max(holders.get(tally.field) ?? 0, tally.count) }));
      const unseen = notReadBack.list().map((tally) => ({ ...tally, notReadBack: true }));
      return { changes: [...changes.list(), ...unseen], wipes: wiped, displayBlanks: blanks.list() };
    },
  };
}

/**
 * Per field of `fields`, the remote listings `matched` (listed by the feed: updated or unchanged)
 * that hold a value for it: the base the guard's --max-wipes percentage is taken of. One pass
 * over the remote, and none when no field has a wipe (the usual night).
 */
export function holdersOf(fields: readonly string[], remote: RemoteRows, matched: (position: number) => boolean): Map<string, number> {
  const counts = new Map(fields.map((field) => [field, 0]));
  if (fields.length === 0) return counts;
  for (let position = 0; position < remote.length; position += 1) {
    if (!matched(position)) continue;
    const values = remote.fields(position) as Readonly<Record<string, unknown>>;
    for (const field of fields) if (!isEmptyValue(values[field])) counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  return counts;
}
