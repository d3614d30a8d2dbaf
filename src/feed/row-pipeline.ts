/**
 * The per-record path: map, key, exclude, de-duplicate, validate, count. Kept free of
 * per-row allocations beyond the listing itself: column lookups were resolved when the
 * mapping was compiled.
 */
import { filledBit } from '../domain/field-changes.js';
import type { SyncKeyType } from '../domain/listing.js';
import type { BrokenKeyReader } from './broken-row-keys.js';
import { displayActed } from '../domain/display-policy/display-report.js';
import type { DisplayStep } from './display-step.js';
import type { ShapeTracker } from './feed-shape-tracker.js';
import type { FeedRow, FeedStats, RejectedFeedRow } from './feed-types.js';
import type { RecordFilter } from './record-filter.js';
import type { CompiledMapping, FieldRule, RecordMapping } from './record-mapping.js';
import type { SourceItem } from './source-record.js';
import { firstSeenLines } from './first-seen-lines.js';
import { checkListing, showValue } from './validate-listing.js';

export interface RowPipeline {
  readonly stats: FeedStats;
  readonly toRow: (item: SourceItem) => FeedRow;
}

/** The reason an `excluded` row outside a chatbot's `where` gives. */
export const OUTSIDE_FILTER = "outside the chatbot's where";

/**
 * `brokenKey` reads the key of a record too broken to map (wrong field count, not JSON); `shape`
 * counts every mapped record of the chatbot's; `filter`, a fleet chatbot's where: a record outside
 * it is an `excluded` row (a replicated pull deletes its listing when held), counted apart;
 * `display`, the MLS display policy (display-step.ts): applied here, where every feed kind passes.
 */
export function rowPipeline(
  mapping: RecordMapping,
  compiled: CompiledMapping,
  keyType: SyncKeyType,
  brokenKey: BrokenKeyReader,
  shape: ShapeTracker,
  display: DisplayStep,
  filter?: RecordFilter,
): RowPipeline {
  const keyField = keyType === 'MLSNumber' ? 'MLSNumber' : 'Url';
  const rulesByField = new Map<string, FieldRule>(compiled.rules.map((rule) => [rule.field, rule]));
  // Each rule's field as a bit of the row's filled mask: a row carries one number, not a list.
  const ruleBits = compiled.rules.map((rule) => filledBit(rule.field));
  const keyRule = rulesByField.get(keyField);
  const stats: FeedStats = { rows: 0, valid: 0, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} };
  // Enumerable, so it crosses to the main thread with the stats; undefined for a feed the display rules found nothing in (no MLS data).
  Object.defineProperty(stats, 'display', { enumerable: true, get: () => (displayActed(display.report) ? display.report : undefined) });
  const firstLine = firstSeenLines();
  const filled: number[] = [];
  const exclude = mapping.exclude;
  const noted = compiled.rules.filter((rule) => rule.note !== undefined);

  /** Counts the notes of fields an accepted row left empty (FieldRule.note). */
  const countNotes = (values: Readonly<Record<string, unknown>>, item: SourceItem): void => {
    for (const rule of noted) {
      if (values[rule.field] !== undefined) continue;
      const note = rule.note?.(item.record);
      if (note === undefined) continue;
      const left = (stats.leftEmpty ??= {});
      const reason = `${rule.field}: ${note}`;
      left[reason] = (left[reason] ?? 0) + 1;
    }
  };

  const reject = (line: number, field: string, value: string, reason: string, key?: string): FeedRow => {
    stats.rejected++;
    return key === undefined ? { kind: 'rejected', line, field, value, reason } : { kind: 'rejected', line, key, field, value, reason };
  };

  /** A record that could not be read as one: rejected with whatever can be trusted of its key. */
  const rejectBroken = (item: SourceItem, problem: string): FeedRow => {
    stats.rejected++;
    const found = brokenKey(item);
    const row: RejectedFeedRow = { kind: 'rejected', line: item.line, field: '(record)', value: '', reason: problem };
    if (found.kind === 'unreadable') {
      row.keyUnreadable = true;
      row.reason = `${problem}; its ${keyType} cannot be read (${found.why}), so this run deletes nothing`;
    } else if (found.kind === 'candidates') {
      row.keyCandidates = [...found.keys];
      row.reason = `${problem}; its ${keyType} is one of ${found.keys.join(', ')}: each of those listings is left as it is`;
    } else if (found.key !== '') {
      row.key = found.key;
      row.reason = `${problem}; its ${keyType} ${found.key} was read where the row is intact: that listing is left as it is`;
      // As for any rejected row: a later row with this key must not silently replace it.
      firstLine.claim(found.key, item.line);
    }
    return row;
  };

  /**
   * A record outside the filter, as a row without its listing: only its key is read (a keyless
   * one has key '', which no listing has, so it removes nothing).
   */
  const outside = (item: SourceItem): FeedRow => {
    stats.outsideFilter = (stats.outsideFilter ?? 0) + 1;
    const keyValue = keyRule?.read(item.record);
    const key = typeof keyValue === 'string' ? keyValue.trim() : '';
    return { kind: 'excluded', line: item.line, key, reason: OUTSIDE_FILTER };
  };

  const mapped = (item: SourceItem): FeedRow => {
    stats.rows++;
    const { line } = item;
    if (item.problem !== undefined) return rejectBroken(item, item.problem);
    filled.length = 0;
    // The mapping reads the record without its withheld members, whatever it names; the shape check sees it whole.
    const record = display.clean(item.record);
    const values = compiled.map(record, filled);
    shape.observe(item.record);
    const keyValue = values[keyField];
    const key = typeof keyValue === 'string' ? keyValue.trim() : undefined;
    if (key === undefined || key === '') {
      const source = keyRule?.source ?? `no ${keyField} column`;
      return reject(
        line,
        keyField,
        showValue(keyRule?.raw(record)),
        `${keyField}: empty (${source}); every row needs a key for --key-type ${keyType}`,
      );
    }
    const excluded = exclude?.(record);
    if (excluded !== undefined) {
      stats.excluded++;
      return { kind: 'excluded', line, key, reason: excluded };
    }
    const hidden = display.notPublished(item.record);
    if (hidden !== undefined) {
      stats.excluded++;
      // Why removed by status: the MLS forbids showing it, so a held copy is deleted in any mode (through the delete guard).
      return { kind: 'excluded', line, key, reason: `${hidden.reason}: ${hidden.detail}`, remove: true };
    }
    // Why the first row claims the key even when it is rejected: a later row must not silently replace it.
    const seenOn = firstLine.claim(key, line);
    if (seenOn !== undefined) {
      stats.duplicates++;
      return reject(line, keyField, key, `duplicate ${keyType} ${key} (first seen on line ${seenOn})`, key);
    }
    const checked = checkListing(values, record, rulesByField);
    if (!checked.ok) return reject(line, checked.field, checked.value, checked.reason, key);
    const shown = display.finish(checked.listing, record);
    if ('reject' in shown) return reject(line, shown.reject.field, '', shown.reject.reason, key);
    stats.valid++;
    if (noted.length > 0) countNotes(values, item);
    const { instructed } = shown;
    if (filled.length === 0)
      return instructed === 0
        ? { kind: 'listing', line, key, listing: checked.listing }
        : { kind: 'listing', line, key, listing: checked.listing, instructed };
    let mask = 0;
    for (const index of filled) {
      const field = (compiled.rules[index] as FieldRule).field;
      stats.filledDefaults[field] = (stats.filledDefaults[field] ?? 0) + 1;
      mask |= ruleBits[index] as number;
    }
    return instructed === 0
      ? { kind: 'listing', line, key, listing: checked.listing, filled: mask }
      : { kind: 'listing', line, key, listing: checked.listing, filled: mask, instructed };
  };
  if (filter === undefined) return { stats, toRow: mapped };
  const toRow = (item: SourceItem): FeedRow =>
    // A broken record is mapped as one (rejected, holding its listing): its fields cannot be trusted to filter it.
    item.problem !== undefined || filter.keeps(item.record) ? mapped(item) : outside(item);
  Object.defineProperty(stats, 'whereNotCarried', {
    enumerable: true,
    get: () => {
      const fields = filter.notCarried();
      const seen = stats.rows + (stats.outsideFilter ?? 0);
      return seen === 0 || fields.length === 0 ? undefined : { fields, known: filter.knownNames() };
    },
  });
  return { stats, toRow };
}
