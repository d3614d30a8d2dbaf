/**
 * The feed-shape check of a sync (src/domain/feed-shape.ts says why): the shape recorded after the
 * last allowed run of the same (chatbot, feed) is read first; the header is compared as soon as
 * the feed is open (a CSV's missing columns refuse the run before anything else is read or
 * planned), the whole shape once the feed is read (gone JSON members, emptied columns), and a run
 * allowed to proceed records its shape for the next one. `--accept-shape` lets one run through.
 */
import { compareShapes, describeDrift, type FeedHeader, type FeedShape, type RecordedShape } from '../domain/feed-shape.js';
import type { GuardVerdict } from '../domain/guard.js';
import type { Plan } from '../domain/plan.js';
import { resolve } from 'node:path';
import { displaySource, isUrl } from '../feed/feed-source.js';
import type { OpenFeed } from '../feed/open-feed.js';
import { stableFeedId } from '../store/feed-sources.js';
import type { SyncSummary } from '../store/run-summary.js';
import { replicationFeedId } from './replication-ids.js';
import { feedSummary, planCounts, type SyncOutcome } from './summary.js';
import type { Logger } from '../runtime/logger.js';
import type { SyncRequest } from './sync-request.js';

/** Where shapes are kept (the store's FeedShapeStore). */
export interface FeedShapeRecords {
  read(chatbot: string, sourceId: string): Promise<RecordedShape | undefined>;
  write(chatbot: string, sourceId: string, shape: RecordedShape): Promise<void>;
}

/** What the check found, as the summary holds it, and the refusal reasons (none when accepted). */
export interface ShapeFinding {
  summary: NonNullable<SyncSummary['shape']>;
  reasons: string[];
}

export interface ShapeCheck {
  /** Compares the columns known at open (none for a RESO pull); undefined when nothing is lost. */
  atHeader(header: FeedHeader | undefined): ShapeFinding | undefined;
  /** Compares the shape of the whole feed; undefined when nothing is lost. */
  afterRead(shape: FeedShape | undefined): ShapeFinding | undefined;
  /** Records `shape` as the one the next run of this source compares with. */
  record(runId: string, startedAt: string, shape: FeedShape | undefined): Promise<void>;
}

/**
 * The id a source's shape is kept under: a replicated source's own id (replication-ids.ts), else
 * a hash of the feed's display form (a URL without credentials and query; a path made absolute,
 * so `./acme.csv` typed by hand is the schedule's `/feeds/acme.csv`).
 */
export function shapeSourceId(request: SyncRequest): string {
  const source = request.feed.source;
  if (request.replicate !== undefined) return replicationFeedId(source);
  return stableFeedId('feed', isUrl(source) ? displaySource(source) : resolve(source));
}

/**
 * Starts the check of `request`'s feed. `incremental`: the feed is a replication pull since a
 * watermark, which holds only what changed, so a column absent or empty in it says nothing: the
 * shape is only recorded (the field-wipe guard covers what such a pull would empty).
 */
export async function startShapeCheck(records: FeedShapeRecords, request: SyncRequest, incremental: boolean): Promise<ShapeCheck> {
  const sourceId = shapeSourceId(request);
  const previous = incremental ? undefined : await records.read(request.chatbot, sourceId);
  const accepted = request.acceptShape === true;
  const findingOf = (stage: 'header' | 'rows', current: FeedHeader | FeedShape | undefined): ShapeFinding | undefined => {
    if (previous === undefined || current === undefined) return undefined;
    const drift = compareShapes(previous, current);
    if (drift.length === 0) return undefined;
    return { summary: { stage, accepted, drift }, reasons: accepted ? [] : drift.map(describeDrift) };
  };
  return {
    // Only a CSV header is the feed's whole set of columns; a JSON feed's first record is not.
    atHeader: (header) => (header?.format === 'csv' ? findingOf('header', header) : undefined),
    afterRead: (shape) => findingOf('rows', shape),
    record: async (runId, startedAt, shape) => {
      if (shape === undefined || shape.rows === 0) return;
      await records.write(request.chatbot, sourceId, { ...shape, source: displaySource(request.feed.source), runId, at: startedAt });
    },
  };
}

/**
 * The guard's verdict with the shape check's: refused when either refuses; --force does not cover a changed shape
 * (--accept-shape does).
 */
export function guardWithShape(guard: GuardVerdict, shape: ShapeFinding | undefined): GuardVerdict {
  if (shape === undefined || shape.reasons.length === 0) return guard;
  return { ...guard, ok: false, forced: false, reasons: [...shape.reasons, ...guard.reasons] };
}

/** What ending a run at its feed's header needs of the sync's dependencies (run-sync.ts SyncDeps holds them). */
export interface HeaderRefusalDeps {
  logger: Logger;
  stores: { saveRun(outcome: SyncOutcome): Promise<void> };
  report?: (outcome: SyncOutcome) => Promise<void>;
  now(): number;
}

/**
 * Ends a run refused at its feed's header: the feed is closed, the refusal logged and recorded
 * (unless dry) and reported. Nothing else was read (not the feed's rows, not the chatbot), nothing
 * planned, nothing changed.
 */
export async function refuseAtHeader(
  deps: HeaderRefusalDeps,
  request: SyncRequest,
  feed: OpenFeed,
  run: { runId: string; startedAt: string },
  finding: ShapeFinding,
): Promise<SyncOutcome> {
  await feed.rows[Symbol.asyncIterator]().return?.();
  const outcome = refusedAtHeader(request, { ...run, finishedAt: new Date(deps.now()).toISOString() }, finding);
  if (!request.dryRun) {
    deps.logger.error(
      { runId: run.runId, chatbot: request.chatbot, reasons: finding.reasons },
      "sync refused: the feed's shape changed; nothing was changed",
    );
    await deps.stores.saveRun(outcome);
  }
  await deps.report?.(outcome);
  return outcome;
}

/** The outcome of a run refused at its feed's header. */
function refusedAtHeader(
  request: SyncRequest,
  run: { runId: string; startedAt: string; finishedAt: string },
  finding: ShapeFinding,
): SyncOutcome {
  const plan: Plan = {
    chatbot: request.chatbot,
    keyType: request.keyType,
    mode: request.mode,
    deleteScope: request.deleteScope,
    creates: [],
    updates: [],
    deletes: [],
    unchanged: 0,
  };
  const stats = { rows: 0, valid: 0, rejected: 0, excluded: 0, duplicates: 0, filledDefaults: {} };
  const summary: SyncSummary = {
    runId: run.runId,
    chatbot: request.chatbot,
    dryRun: request.dryRun,
    trigger: request.trigger ?? 'cli',
    startedAt: run.startedAt,
    feed: feedSummary(request.feed.source, request.feed.profile, stats),
    remote: { listings: 0, virtualCount: 0, complete: false, incompleteReasons: [], duplicates: 0, unkeyed: 0 },
    plan: planCounts(plan),
    guard: { ok: false, reasons: finding.reasons, forced: false },
    finishedAt: run.finishedAt,
    shape: finding.summary,
  };
  return { summary, plan, rejected: [], remoteDuplicates: [], remoteUnkeyed: [] };
}
