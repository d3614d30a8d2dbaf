/**
 * A replication run as an OpenFeed: the RESO records of each page mapped by the reso profile,
 * row by row, so a replicated pull is planned exactly like a RESO feed file. A pull halted by the
 * request budget ends the rows early instead of failing: what was received is a prefix of the
 * timestamp order, safe to apply, and `halt()` says the pull is partial.
 */
import type { SyncKeyType } from '../../domain/listing.js';
import { errorFields } from '../../shared/errors.js';
import { jsonBrokenKeyReader } from '../broken-row-keys.js';
import { feedHeader, shapeTracker, type ShapeTracker } from '../feed-shape-tracker.js';
import type { FeedRow, FeedStats, OpenFeed } from '../feed-types.js';
import { buildResoMapping } from '../profiles/reso.js';
import { compileMapping, ruleFor } from '../record-mapping.js';
import { displayStep, type DisplaySettings } from '../display-step.js';
import type { Where } from '../../domain/where.js';
import { recordFilter } from '../record-filter.js';
import { rowPipeline, type RowPipeline } from '../row-pipeline.js';
import { jsonColumns, type SourceColumns } from '../source-record.js';
import type { ReplicationMapping } from './replication-mapping.js';
import type { ReplicationRun } from './replicate.js';
import type { ReplicationResult, ResoRecord } from './types.js';
import { ErrorCode } from '../../shared/error-codes.js';

export interface ReplicatedFeed extends OpenFeed {
  /** The error that halted the pull early (BUDGET_EXHAUSTED, FEED_INCOMPLETE), once the rows ended; undefined when it was not halted. */
  halt(): Error | undefined;
  result(): ReplicationResult;
}

const EMPTY_STATS: FeedStats = { rows: 0, valid: 0, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} };

function pipelineFor(
  first: ResoRecord,
  keyType: SyncKeyType,
  where: Where | undefined,
  mappingOf: ReplicationMapping['build'],
  display: DisplaySettings | undefined,
): RowPipeline & { shape: ShapeTracker } {
  // Why the first record's members suffice: RESO columns are looked up with `optional`, which
  // reads a member by name on every record even when the first one omits it.
  const columns = jsonColumns(first);
  const mapping = mappingOf(columns);
  const keyRule = ruleFor(mapping, keyType === 'MLSNumber' ? 'MLSNumber' : 'Url');
  const compiled = compileMapping(mapping);
  const shape = shapeTracker(feedHeader('json', columns, compiled.rules), columns, compiled.rules, compiled.produced);
  const filter = where === undefined ? undefined : recordFilter(where, 'json', columns);
  const shown = displayStep(display, columns, compiled.rules);
  return { ...rowPipeline(mapping, compiled, keyType, jsonBrokenKeyReader(keyRule), shape, shown, filter), shape };
}

/**
 * Whether a thrown error is a halt the run survives, rather than a failure: the budget ran out, or
 * the server stopped serving records it counted. Either way what arrived is a prefix of the
 * (ModificationTimestamp, ListingKey) order, safe to apply; nothing may be deleted on its word.
 */
export function isPullHalt(thrown: unknown): boolean {
  const { code } = errorFields(thrown);
  return code === ErrorCode.BUDGET_EXHAUSTED || code === ErrorCode.FEED_INCOMPLETE;
}

/**
 * Wraps a replication run (nothing is requested until the rows are iterated); `where`, a fleet
 * chatbot's filter: records outside it are `excluded` rows (deleted when held, once the pull is complete);
 * `display`, the MLS display policy the records are read under (display-step.ts).
 */
export function replicatedFeed(
  run: ReplicationRun,
  keyType: SyncKeyType,
  where?: Where,
  mapping?: ReplicationMapping,
  display?: DisplaySettings,
): ReplicatedFeed {
  const mappingOf = mapping?.build ?? ((columns: SourceColumns) => buildResoMapping(columns, { keyType, resoPending: 'active' }));
  let pipeline: (RowPipeline & { shape: ShapeTracker }) | undefined;
  let halted: Error | undefined;
  async function* rows(): AsyncGenerator<FeedRow> {
    let line = 0;
    try {
      for (let page = await run.pages.next(); page.done !== true; page = await run.pages.next()) {
        for (const record of page.value) {
          pipeline ??= pipelineFor(record, keyType, where, mappingOf, display);
          line += 1;
          yield pipeline.toRow({ line, record });
        }
      }
    } catch (thrown) {
      if (!isPullHalt(thrown) || !(thrown instanceof Error)) throw thrown;
      halted = thrown;
    }
  }
  return {
    rows: rows(),
    stats: () => pipeline?.stats ?? { ...EMPTY_STATS, filledDefaults: {} },
    progress: () => ({ bytes: run.result().bytes }),
    readIn: 'main',
    shape: () => pipeline?.shape.shape(),
    halt: () => halted,
    result: () => run.result(),
  };
}

/** What a sweep read: every key when it completed; otherwise why not (a partial key list must delete nothing). */
export type SweptKeys = { complete: true; keys: ReadonlySet<string> } | { complete: false; halt?: Error };

/** Reads a sweep to its end; a halt (budget, a server that stopped short) is returned, other failures are thrown. */
export async function sweptKeys(run: ReplicationRun, keyOf: (record: ResoRecord) => string | undefined): Promise<SweptKeys> {
  const keys = new Set<string>();
  try {
    for (let page = await run.pages.next(); page.done !== true; page = await run.pages.next()) {
      for (const record of page.value) {
        const key = keyOf(record);
        if (key !== undefined) keys.add(key);
      }
    }
  } catch (thrown) {
    if (isPullHalt(thrown) && thrown instanceof Error) return { complete: false, halt: thrown };
    throw thrown;
  }
  return run.result().complete ? { complete: true, keys } : { complete: false };
}
