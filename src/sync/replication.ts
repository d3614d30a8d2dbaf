/**
 * The replication side of a sync (`--replicate`): where the pull starts (the stored watermark),
 * the optional key sweep, and what is recorded when the run ends. The watermark advances only
 * after the plan was enqueued, so a crash between pulling and enqueueing pulls the same records
 * again next time rather than losing them.
 */
import { replicatedFeed, sweptKeys } from '../feed/reso-api/replicated-feed.js';
import { replicationMapping } from '../feed/reso-api/replication-mapping.js';
import type { Plan } from '../domain/plan.js';
import type { Logger } from '../runtime/logger.js';
import type { FeedRunStatus } from '../store/feed-sources.js';
import type { SyncRequest } from './sync-request.js';
import { errorFields } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { finishEventReplication, startEventReplication } from './event-replication.js';
import type { EventRun, MetadataRead, ReplicationDeps, ReplicationProgress, StartedReplication } from './replication-types.js';
import { sourceOf } from './kept-metadata.js';
import { propertyFields } from '../feed/reso-api/service-metadata.js';
import type { DisplaySettings } from '../feed/display-step.js';
import { hostedRun } from '../feed/media/hosted-run.js';
import type { PhotoCounts } from '../feed/media/photo-counts.js';

export type { ReplicationDeps, ReplicationProgress, StartedReplication } from './replication-types.js';

/** What a replicating run reports (printed by the CLI, recorded on the source). */
export interface ReplicationOutcome {
  status: FeedRunStatus;
  recordsPulled: number;
  requests: number;
  bytes: number;
  /** The watermark after the run (unchanged on a dry run, a refusal or a halt that received nothing). */
  watermark?: string;
  /** Where the pull started: undefined for a first (full) pull. */
  since?: string;
  sweep?: { complete: boolean; deleted: number };
  /** Why the pull or the sweep stopped early (BUDGET_EXHAUSTED, FEED_INCOMPLETE), in one line. */
  halted?: string;
  /** Records (keys, for a sweep) received and counted by the server, when a pull or sweep came back short of its count. */
  shortfall?: { of: 'pull' | 'sweep'; received: number; expected: number };
  /** `--events`: the mode, why a resync, the sequence stored after the run, and what the events named. */
  events?: Omit<EventRun, 'requests' | 'bytes' | 'after'> & { sequence?: number };
  /** With a media store: the photos hosted, reused and not fetched (absent: Images are the source's own URLs). */
  photos?: PhotoCounts;
}

/**
 * A pull that did not complete deletes nothing: its off-market rows are not planned as deletes
 * (plan-feed-rows asks), and here the sweep's deletes are dropped too. Duplicate clean-ups stay:
 * they remove extra copies of keys that remain listed.
 */
export function dropDeletesOfPartialPull(plan: Plan, started: StartedReplication): void {
  if (pullComplete(started)) return;
  plan.deletes = plan.deletes.filter((planned) => planned.reason !== 'gone');
}

/** Whether the pull was read to its end (not halted by the budget). */
export function pullComplete(started: StartedReplication): boolean {
  return started.feed.halt() === undefined && started.feed.result().complete;
}

/** What the server publishes about itself, as this run knows it (nothing when the deps read no metadata). */
export async function knownMetadata(deps: ReplicationDeps): Promise<MetadataRead> {
  return (await deps.metadata?.()) ?? { requests: 0, bytes: 0 };
}

/**
 * Reads the watermark and, with --sweep, pulls every key first; returns the pull as a feed. The
 * server's metadata comes first: a mapping naming a field it lacks is refused before anything is
 * pulled, and the pull pages by the server's own key and stamp fields.
 */
export async function startReplication(
  deps: ReplicationDeps,
  request: SyncRequest,
  progress: ReplicationProgress = {},
  options: { full?: boolean; display?: DisplaySettings; read?: MetadataRead } = {},
): Promise<StartedReplication & { since?: string }> {
  const { events } = deps;
  const full = options.full === true;
  const { display } = options;
  const read = options.read ?? (await knownMetadata(deps));
  const known = sourceOf(read);
  const spent = read.requests === 0 && read.bytes === 0 ? {} : { metadataSpent: { requests: read.requests, bytes: read.bytes } };
  if (spent.metadataSpent !== undefined) progress.metadataSpent = spent.metadataSpent;
  if (events !== undefined && !full) {
    const started = await startEventReplication({ ...deps, events }, request, progress, { display, known }, (d, r, p) =>
      startReplication(d, r, p, { full: true, read: { ...known, requests: 0, bytes: 0 }, ...(display === undefined ? {} : { display }) }),
    );
    return { ...started, ...spent };
  }
  const mapping = await replicationMapping(request.keyType, request.feed.mapping, propertyFields(read.metadata));
  const source = await deps.sources.show(request.chatbot, deps.feedId);
  // `full`: an --events resync, every record with the key sweep first, whatever the watermark and --sweep.
  const since = full ? undefined : source?.watermark;
  let sweep: StartedReplication['sweep'];
  let keys: ReadonlySet<string> | undefined;
  if (request.replicate?.sweep === true || full) {
    // Why the sweep first: its keys are complete (or not) before planning starts, and a record
    // created during the pull is seen by the pull itself, so it is never taken for gone.
    const run = deps.start({ sweep: true, keyFields: mapping.keyFields, ...known });
    progress.sweepRun = run;
    const swept = await sweptKeys(run, mapping.keyOf);
    if (swept.complete) keys = swept.keys;
    const { requests, bytes } = run.result();
    sweep = { complete: swept.complete, requests, bytes, ...(!swept.complete && swept.halt ? { halt: swept.halt } : {}) };
  }
  const recheck = since === undefined || deps.photos === undefined ? [] : await deps.photos.pending();
  const pulled = deps.start(
    since === undefined
      ? { sweep: false, ...known }
      : { watermark: since, sweep: false, ...known, ...(recheck.length === 0 ? {} : { recheckKeys: recheck }) },
  );
  const pull = deps.photos === undefined ? pulled : hostedRun(pulled, deps.photos.hosting);
  const feed = replicatedFeed(pull, request.keyType, request.feed.where, mapping, options.display);
  return {
    feed,
    ...spent,
    ...(deps.photos === undefined ? {} : { photos: deps.photos.hosting }),
    ...(keys === undefined ? {} : { sweptKeys: keys }),
    ...(sweep ? { sweep } : {}),
    ...(since === undefined ? {} : { since }),
  };
}

/** What an --events run reports: its figures without the spend (counted in the run's requests). */
function eventsOutcome(run: EventRun, sequence: number | undefined): NonNullable<ReplicationOutcome['events']> {
  const { requests: _requests, bytes: _bytes, after: _after, sequence: _planned, ...shown } = run;
  return { ...shown, ...(sequence === undefined ? {} : { sequence }) };
}

/** The status of a run a halt cut short: the budget ran out, or the server stopped short of its own count. */
function haltStatus(halt: Error): FeedRunStatus {
  return errorFields(halt).code === ErrorCode.FEED_INCOMPLETE ? 'incomplete' : 'budget-exhausted';
}

/** The numbers of a pull or sweep that came back short of the server's count (the sweep's first: it stops deletes). */
function shortfallOf(started: StartedReplication): ReplicationOutcome['shortfall'] {
  for (const [of, halt] of [
    ['sweep', started.sweep?.halt],
    ['pull', started.feed.halt()],
  ] as const) {
    const { code, details } = errorFields(halt);
    if (code === ErrorCode.FEED_INCOMPLETE && typeof details.received === 'number' && typeof details.expected === 'number')
      return { of, received: details.received, expected: details.expected };
  }
  return undefined;
}

/**
 * Records how the run ended and, when its plan was enqueued, advances the watermark to the
 * largest timestamp received. Why also after a budget halt: pages come in timestamp order, so
 * what was received is a prefix and everything stamped before its largest stamp was applied.
 */
export async function finishReplication(
  deps: ReplicationDeps,
  request: SyncRequest,
  started: StartedReplication & { since?: string },
  ended: { runId: string; enqueued: boolean; refused: boolean; deleted: number },
): Promise<ReplicationOutcome> {
  const result = started.feed.result();
  const halt = started.feed.halt() ?? started.sweep?.halt;
  const status: FeedRunStatus = ended.refused ? 'refused' : halt === undefined ? 'done' : haltStatus(halt);
  const shortfall = shortfallOf(started);
  let watermark = started.since;
  const sequence = await finishEventReplication(deps, request, started, { enqueued: ended.enqueued, pullComplete: pullComplete(started) });
  if (ended.enqueued && result.maxTimestamp !== undefined)
    watermark = (await deps.sources.advanceWatermark(request.chatbot, deps.feedId, result.maxTimestamp)).watermark;
  const sweep =
    started.sweep === undefined ? undefined : { complete: started.sweep.complete, deleted: started.sweep.complete ? ended.deleted : 0 };
  const outcome: ReplicationOutcome = {
    status,
    recordsPulled: result.records,
    requests: result.requests + (started.sweep?.requests ?? 0) + (started.events?.requests ?? 0) + (started.metadataSpent?.requests ?? 0),
    bytes: result.bytes + (started.sweep?.bytes ?? 0) + (started.events?.bytes ?? 0) + (started.metadataSpent?.bytes ?? 0),
    ...(watermark === undefined ? {} : { watermark }),
    ...(started.since === undefined ? {} : { since: started.since }),
    ...(sweep ? { sweep } : {}),
    ...(halt === undefined ? {} : { halted: halt.message }),
    ...(shortfall === undefined ? {} : { shortfall }),
    ...(started.events === undefined ? {} : { events: eventsOutcome(started.events, sequence) }),
    ...(started.photos === undefined ? {} : { photos: started.photos.counts() }),
  };
  await deps.photos?.close();
  if (!request.dryRun) {
    await deps.sources.recordRun(request.chatbot, deps.feedId, {
      feed: request.feed.source,
      runId: ended.runId,
      status,
      recordsPulled: outcome.recordsPulled,
      requests: outcome.requests,
      bytes: outcome.bytes,
      ...(sweep ? { sweep } : {}),
    });
  }
  return outcome;
}

/**
 * Records a replicating run that failed (429s, a refused credential, a failed read): its source
 * shows `failed` with what it pulled and spent. Best effort: a failure to record (Redis down)
 * is logged, never allowed to hide the failure that ended the run.
 */
export async function recordFailedReplication(
  deps: ReplicationDeps,
  request: SyncRequest,
  runId: string,
  progress: ReplicationProgress,
  logger: Pick<Logger, 'warn'>,
): Promise<void> {
  const pull = progress.started?.feed.result();
  const swept = progress.sweepRun?.result();
  try {
    await deps.sources.recordRun(request.chatbot, deps.feedId, {
      feed: request.feed.source,
      runId,
      status: 'failed',
      recordsPulled: pull?.records ?? 0,
      requests: (pull?.requests ?? 0) + (swept?.requests ?? 0) + (progress.metadataSpent?.requests ?? 0),
      bytes: (pull?.bytes ?? 0) + (swept?.bytes ?? 0) + (progress.metadataSpent?.bytes ?? 0),
      // A failed run deletes nothing, whether its sweep completed or not.
      ...(progress.sweepRun === undefined ? {} : { sweep: { complete: progress.started?.sweep?.complete ?? false, deleted: 0 } }),
    });
  } catch (thrown) {
    logger.warn({ runId, chatbot: request.chatbot, err: thrown }, 'could not record the failed replication run');
  }
}
