/**
 * A feed's shape — its columns, which of them the mapping reads for which field, and how many rows
 * had a value in each — and the comparison of tonight's shape with the one recorded after the
 * last run of the same (chatbot, feed). Why: a vendor that renames, drops or empties a column
 * silently would otherwise blank a field on every listing (a missing column reads as empty, and
 * a required number falls back to 0), which is worse than a mass delete because nothing looks wrong.
 */
import { lookalikeColumn } from './column-likeness.js';

export type ShapeFormat = 'csv' | 'json';

/** A column the mapping reads and the fields it fills. */
export interface ColumnRead {
  readonly column: string;
  readonly fields: readonly string[];
  /** Empty on every row is normal for it (an open-house time): no "emptied" check. */
  readonly sparse?: boolean;
}

/** A read column with how many rows had a non-empty value in it. */
export interface CountedColumnRead extends ColumnRead {
  readonly rows: number;
}

/** What is known of a feed's shape once it is open: its columns (a CSV header; a JSON feed's first record) and what the mapping reads. */
export interface FeedHeader {
  readonly format: ShapeFormat;
  readonly columns: readonly string[];
  readonly reads: readonly ColumnRead[];
}

/** A feed's shape once read whole. */
export interface FeedShape {
  readonly format: ShapeFormat;
  /** The CSV header, or every JSON member seen in any record. */
  readonly columns: readonly string[];
  readonly reads: readonly CountedColumnRead[];
  /** Per field read from columns: rows where the mapping gave it a value from the feed (defaults not counted). */
  readonly fields: Readonly<Record<string, number>>;
  /** Records mapped (rows too broken to map are not counted). */
  readonly rows: number;
}

/** A shape as recorded after a run that was allowed to proceed. */
export interface RecordedShape extends FeedShape {
  /** The feed's display form (never its credentials or query). */
  readonly source: string;
  readonly runId: string;
  /** ISO time the run started. */
  readonly at: string;
}

/** One way tonight's feed lost what the last run had. */
export interface ShapeDrift {
  /** gone: the column is missing; emptied: present, but empty on every row. */
  readonly kind: 'gone' | 'emptied';
  readonly format: ShapeFormat;
  readonly column: string;
  /** The fields it filled last time (and would now leave empty). */
  readonly fields: string[];
  /** Rows with a value in it last time, of how many, and in which run. */
  readonly before: { readonly rows: number; readonly of: number; readonly runId: string };
  /** Rows read now (emptied only). */
  readonly rowsNow?: number;
  /** A column new since last time whose name looks like this one. */
  readonly lookalike?: string;
}

/**
 * Why a handful: a JSON member that RESO servers omit when null, or a column that had a stray value
 * or two, says nothing about the feed when it is absent or empty tonight.
 */
export const SHAPE_HANDFUL = 5;

const normal = (name: string): string => name.trim().toLowerCase();

function columnsFilling(reads: readonly ColumnRead[]): Map<string, Set<string>> {
  const byField = new Map<string, Set<string>>();
  for (const read of reads) {
    for (const field of read.fields) {
      const set = byField.get(field) ?? new Set<string>();
      set.add(normal(read.column));
      byField.set(field, set);
    }
  }
  return byField;
}

/** True when the current header or shape counts rows (a whole read), not only columns. */
function isWhole(current: FeedHeader | FeedShape): current is FeedShape {
  return 'rows' in current;
}

/**
 * What tonight's feed lost against the last recorded shape: columns the mapping read (with values)
 * that are gone, and read columns that had values in a handful of rows and have none now. Given a
 * header only (a CSV feed just opened), only gone columns are found. A JSON member counts as gone
 * only when it had values in a handful of records (RESO servers omit null members). A field the
 * mapping now reads from another column that is present (the mapping was fixed) is not at stake.
 */
export function compareShapes(previous: RecordedShape, current: FeedHeader | FeedShape): ShapeDrift[] {
  const present = new Set(current.columns.map(normal));
  const seenBefore = new Set(previous.columns.map(normal));
  const added = current.columns.filter((name) => !seenBefore.has(normal(name)));
  const nowFilling = columnsFilling(current.reads);
  const remapped = (field: string, column: string): boolean => {
    const now = nowFilling.get(field);
    return now !== undefined && now.size > 0 && !now.has(normal(column)) && [...now].every((name) => present.has(name));
  };
  const hadValues = (field: string): boolean => (previous.fields[field] ?? 0) > 0;
  const driftOf = (kind: ShapeDrift['kind'], read: CountedColumnRead, column: string, fields: string[]): ShapeDrift => {
    const lookalike = lookalikeColumn(read.column, added);
    return {
      kind,
      format: current.format,
      column,
      fields,
      before: { rows: read.rows, of: previous.rows, runId: previous.runId },
      ...(kind === 'emptied' && isWhole(current) ? { rowsNow: current.rows } : {}),
      ...(lookalike === undefined ? {} : { lookalike }),
    };
  };
  const goneThreshold = current.format === 'json' || previous.format === 'json' ? SHAPE_HANDFUL : 1;
  const drift: ShapeDrift[] = [];
  for (const read of previous.reads) {
    if (present.has(normal(read.column)) || read.rows < goneThreshold) continue;
    const fields = read.fields.filter((field) => hadValues(field) && !remapped(field, read.column));
    if (fields.length > 0) drift.push(driftOf('gone', read, read.column, fields));
  }
  if (!isWhole(current) || current.rows === 0) return drift;
  const nowByColumn = new Map(current.reads.map((read) => [normal(read.column), read]));
  for (const read of previous.reads) {
    const now = nowByColumn.get(normal(read.column));
    if (read.rows < SHAPE_HANDFUL || now === undefined || now.rows > 0 || now.sparse === true || !present.has(normal(read.column)))
      continue;
    const stillRead = now.fields.filter((field) => read.fields.includes(field));
    const withValues = stillRead.filter(hadValues);
    const fields = withValues.length > 0 ? withValues : stillRead;
    if (fields.length > 0) drift.push(driftOf('emptied', read, now.column, fields));
  }
  return drift;
}

const ACCEPT = 'or accept the new shape once with --accept-shape';

/** The refusal reason for one drift: what changed, what it filled, what looks like it, and the ways on. */
export function describeDrift(drift: ShapeDrift): string {
  const [noun, rowNoun] = drift.format === 'json' ? ['member', 'records'] : ['column', 'rows'];
  const fields = drift.fields.join(', ');
  const field = drift.fields[0] ?? 'Field';
  const had = `it had values on ${drift.before.rows} of ${drift.before.of} ${rowNoun} in run ${drift.before.runId}`;
  const target = drift.lookalike ?? '…';
  const mapping = `"columns": {${JSON.stringify(field)}: ${JSON.stringify(target)}}`;
  const lookalike = drift.lookalike === undefined ? `no new ${noun} looks like it` : `'${drift.lookalike}' is new and looks like it`;
  if (drift.kind === 'gone')
    return (
      `the feed's shape changed: ${noun} '${drift.column}' (${fields}) is gone; ${lookalike} (${had}). Fix ` +
      `the mapping (${mapping} in a --mapping file) ${ACCEPT}`
    );
  return (
    `the feed's shape changed: ${noun} '${drift.column}' (${fields}) is empty on all ${drift.rowsNow ?? 0} ` +
    `${rowNoun}; ${had}${drift.lookalike === undefined ? '' : `, and ${lookalike}`}. Fix the feed, fix the ` +
    `mapping (${mapping} in a --mapping file) ${ACCEPT}`
  );
}
