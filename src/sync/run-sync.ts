/**
 * The sync use case: feed + remote snapshot + ledger → plan → guard → (unless dry) enqueue.
 * It composes the parts and owns no I/O of its own: every effect arrives through `SyncDeps`.
 */
import { checkGuard, parseMaxDeletes } from '../domain/guard.js';
import { indexRemoteKeys } from '../domain/snapshot/remote-key-index.js';
import type { Plan } from '../domain/plan.js';
import { createPlanner, type Planner, type PlannerContext } from '../domain/planner.js';
import type { PlanSpool } from './plan-spool.js';
import { displaySource } from '../feed/feed-source.js';
import { DEFAULT_FEED_LIMITS, openFeed, type OpenFeed } from '../feed/open-feed.js';
import { feedDeadline, type FeedDeadline } from './feed-deadline.js';
import { guardWithShape, refuseAtHeader, startShapeCheck } from './feed-shape-check.js';
import { guardWithWhere } from './where-check.js';
import { holdingChatbot } from './hold-chatbot.js';
import { DEFAULT_SNAPSHOT_OPTIONS, readRemoteSnapshot } from './snapshot.js';
import { planFeedRows, type PlannedFeed } from './plan-feed-rows.js';
import type { SyncSummary } from '../store/run-summary.js';
import { enqueueRunJobs } from '../queue/enqueue.js';
import { feedSummary, planCounts, wipesSummary, type SyncOutcome, type SyncResult } from './summary.js';
import { wipeLimitsOf, type SyncRequest } from './sync-request.js';
import {
  dropDeletesOfPartialPull,
  finishReplication,
  pullComplete,
  recordFailedReplication,
  startReplication,
  type ReplicationDeps,
  type ReplicationProgress,
  type StartedReplication,
} from './replication.js';
import type { SyncDeps, SyncProgress } from './sync-deps.js';
import { hostedFeed, type FeedPhotos } from '../feed/media/hosted-feed.js';
import { referencedFeed } from '../feed/media/referenced-feed.js';
import { displaySettingsOf, displaySummaryOf } from './display-run.js';

async function readFeed(
  request: SyncRequest,
  feed: OpenFeed,
  planner: Promise<Planner<Plan>>,
  progress: SyncProgress | undefined,
  signal: AbortSignal | undefined,
  replication: StartedReplication | undefined,
  onRejected: SyncDeps['onRejected'],
): Promise<PlannedFeed<Plan> & { summary: SyncSummary['feed'] }> {
  const where = displaySource(request.feed.source);
  const read = await planFeedRows(feed, planner, {
    ...(progress?.feed ? { onProgress: progress.feed } : {}),
    ...(onRejected ? { onRejected } : {}),
    ...(signal ? { signal } : {}),
    ...(replication ? { removeExcluded: () => pullComplete(replication) } : {}),
    where,
  });
  const summary = feedSummary(where, request.feed.profile, read.stats);
  if (read.rejectedCounts.length > 0) summary.rejectedBy = read.rejectedCounts;
  return { ...read, summary };
}

/**
 * Runs one sync. Returns the outcome whether the guard allowed it or not; the caller maps
 * `summary.guard.ok === false` to exit code 3. Nothing is written to the service here: writes
 * happen only in the queue's workers, and only when the guard allowed them and not dry.
 */
export async function runSync(deps: SyncDeps, request: SyncRequest): Promise<SyncResult> {
  const runId = deps.newRunId();
  const deadline = feedDeadline(deps.signal, deps.feedLimits?.deadlineMs ?? DEFAULT_FEED_LIMITS.deadlineMs);
  // Built before the chatbot is held: missing feed credentials stop the sync before anything.
  const replication = replicationDepsOf(deps, request, deadline.signal);
  // Opened before the chatbot is held and anything is read: a temp directory that cannot hold
  // the plan stops the sync with one line before a single request.
  const spool = deps.openPlanSpool?.();
  // Opened before anything is read too: a media store that cannot be opened stops the sync first.
  const photos = replication === undefined ? deps.photosFor?.(request, deadline.signal) : undefined;
  try {
    const side = { runId, replication, spool, deadline, photos };
    if (request.dryRun || deps.lease === undefined) return withoutPlan(await syncRecorded(deps, request, side));
    const hold = {
      chatbot: request.chatbot,
      runId,
      waitMs: request.waitForLockMs ?? 0,
      logger: deps.logger,
      ...(deps.signal ? { signal: deps.signal } : {}),
    };
    return withoutPlan(await holdingChatbot(deps.lease, hold, () => syncRecorded(deps, request, side)));
  } finally {
    deadline.stop();
    spool?.close();
    await photos?.close();
  }
}

/** The outcome as runSync returns it: its plan's spool is closed, so the plan is left out. */
function withoutPlan(outcome: SyncOutcome): SyncResult {
  const { plan: _plan, ...result } = outcome;
  return result;
}

/** What a sync carries besides its deps and request: its run id, replication deps and plan spool. */
interface SyncSide {
  runId: string;
  replication: ReplicationDeps | undefined;
  spool: PlanSpool | undefined;
  deadline: FeedDeadline;
  /** A file feed's photo hosting (with a media store). */
  photos: FeedPhotos | undefined;
}

/** syncAs, with a replicating run that fails recorded as `failed` on its source (what it pulled and spent included). */
async function syncRecorded(deps: SyncDeps, request: SyncRequest, side: SyncSide): Promise<SyncOutcome> {
  const held: ReplicationProgress = {};
  const { runId, replication } = side;
  try {
    return await syncAs(deps, request, runId, { ...side, held });
  } catch (caught) {
    const thrown = side.deadline.explain(caught, displaySource(request.feed.source));
    if (replication !== undefined && !request.dryRun) await recordFailedReplication(replication, request, runId, held, deps.logger);
    throw thrown;
  }
}

/** The replication deps of a `--replicate` request (undefined otherwise). */
function replicationDepsOf(deps: SyncDeps, request: SyncRequest, signal: AbortSignal): ReplicationDeps | undefined {
  if (request.replicate === undefined) return undefined;
  if (deps.replicationFor === undefined) throw new Error('runSync: a --replicate request needs deps.replicationFor');
  return deps.replicationFor(request, signal);
}

/** The sync itself, as run `runId` (holding the chatbot unless dry). */
async function syncAs(
  deps: SyncDeps,
  request: SyncRequest,
  runId: string,
  side: SyncSide & { held: ReplicationProgress },
): Promise<SyncOutcome> {
  const maxDeletes = parseMaxDeletes(request.maxDeletes);
  const startedAt = new Date(deps.now()).toISOString();
  // The one instant this run judges the display policy's dated rules at, for every record it reads.
  const display = await displaySettingsOf(deps, request);
  const { deadline } = side;
  deadline.start();

  // Opened first: a feed that cannot be read at all (missing file, no key column) stops the sync
  // before a single request is sent.
  const replication =
    side.replication === undefined
      ? undefined
      : await startReplication(side.replication, request, side.held, display === undefined ? {} : { display });
  if (replication) side.held.started = replication;
  // Read before the feed is opened, so nothing opened is left behind when Redis fails here.
  const shapes = await startShapeCheck(deps.stores.feedShapes, request, replication?.since !== undefined);
  const openedFeed =
    replication?.feed ??
    (await openFeed(
      { ...request.feed, ...deps.feedLimits, keyType: request.keyType, display },
      { signal: deadline.signal, ...(deps.urlCopies ? { urlCopies: deps.urlCopies } : {}) },
    ));
  const hosting = side.photos?.hosting;
  // A replicated run's photos were hosted page by page; its listings record them by the chatbot's key.
  const replicatedPhotos = request.dryRun ? undefined : side.replication?.photos;
  deps.logger.debug(
    { runId, chatbot: request.chatbot, readIn: openedFeed.readIn },
    openedFeed.readIn === 'worker' ? 'feed opened, read in a worker thread' : 'feed opened',
  );
  // A CSV that lost a column the mapping reads is refused now: before the chatbot is read or anything is planned.
  const atHeader = shapes.atHeader(openedFeed.header);
  if (atHeader !== undefined && atHeader.reasons.length > 0)
    return await refuseAtHeader(deps, request, openedFeed, { runId, startedAt }, atHeader);
  // The feed and the remote are read at the same time: neither depends on the other. The planner
  // starts once the remote and the ledger are in, and plans the feed rows as they come.
  const snapshotRead = readRemoteSnapshot(deps.api, {
    chatbot: request.chatbot,
    pageSize: request.pageSize ?? DEFAULT_SNAPSHOT_OPTIONS.pageSize,
    concurrency: DEFAULT_SNAPSHOT_OPTIONS.concurrency,
    maxRereads: DEFAULT_SNAPSHOT_OPTIONS.maxRereads,
    retryTable: deps.retryTable,
    ...(deps.progress?.remote ? { onProgress: deps.progress.remote } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // Why the ledger is read after the snapshot: it is held by remote position (one hash per listing,
  // no key strings), which needs the snapshot's key index; Redis answers in seconds at 1M entries.
  const indexed = snapshotRead.then((snapshot) => indexRemoteKeys(snapshot.rows, request.keyType));
  const ledgerRead = Promise.all([snapshotRead, indexed]).then(([snapshot, index]) =>
    deps.stores.readLedger(request.chatbot, index, snapshot.rows.length),
  );
  const planner = Promise.all([snapshotRead, indexed, ledgerRead, deps.stores.failedKeys(request.chatbot, request.keyType)]).then(
    ([snapshot, index, ledger, retryKeys]) => {
      const context: PlannerContext = {
        chatbot: request.chatbot,
        keyType: request.keyType,
        // Why upsert when replicating: a pull holds only what changed, so absence is no delete.
        mode: replication ? 'upsert' : request.mode,
        deleteScope: request.deleteScope,
        ...(replication?.sweptKeys ? { sweptKeys: replication.sweptKeys } : {}),
        remote: snapshot.rows,
        index,
        ledger,
        retryKeys,
        ...(request.volatileFields ? { volatileFields: request.volatileFields } : {}),
      };
      return side.spool === undefined ? createPlanner(context) : createPlanner(context, side.spool);
    },
  );
  const [feed, snapshot, , lastRows] = await Promise.all([
    readFeed(
      request,
      hosting !== undefined
        ? hostedFeed(openedFeed, hosting)
        : replicatedPhotos === undefined
          ? openedFeed
          : referencedFeed(openedFeed, replicatedPhotos.baseUrl, (listings) => replicatedPhotos.reference(listings)),
      planner,
      deps.progress,
      deadline.signal,
      replication,
      deps.onRejected,
    ).finally(() => deadline.stop()),
    snapshotRead,
    ledgerRead,
    deps.stores.lastSuccessfulFeedRows(request.chatbot),
    // Listed so that its failure (a failed ledger or failed-keys read) is handled even while the feed is still being opened.
    planner,
  ]);
  const { plan, adopt, remoteDuplicates, remoteUnkeyed, managedListings, wipes } = feed.planned;
  if (replication) dropDeletesOfPartialPull(plan, replication);

  // Scope managed: only ledger entries a remote listing holds (see PlanResult.managedListings).
  const managedCount = request.deleteScope === 'all' ? snapshot.rows.length : managedListings;
  const wipeLimits = wipeLimitsOf(request);
  const guard = checkGuard({
    plan,
    feedRows: feed.summary.rows,
    validRows: feed.summary.valid,
    rejectedRows: feed.summary.rejected,
    remoteListings: snapshot.rows.length,
    remoteComplete: snapshot.complete,
    remoteIncompleteReasons: snapshot.incompleteReasons,
    managedCount,
    ...(lastRows === undefined ? {} : { lastSuccessfulFeedRows: lastRows }),
    maxDeletes,
    maxRejectedPercent: request.maxRejectedPercent,
    wipes,
    wipeLimits,
    force: request.force,
    ...(replication ? { incremental: true } : {}),
  });
  const shape = shapes.afterRead(openedFeed.shape()) ?? atHeader;
  const verdict = guardWithWhere(guardWithShape(guard, shape), feed.stats, request.fleetSource);

  const summary: SyncSummary = {
    runId,
    chatbot: request.chatbot,
    dryRun: request.dryRun,
    trigger: request.trigger ?? 'cli',
    ...(request.fleetSource === undefined ? {} : { source: request.fleetSource }),
    startedAt,
    feed: feed.summary,
    remote: {
      listings: snapshot.rows.length,
      virtualCount: snapshot.virtualCount,
      complete: snapshot.complete,
      incompleteReasons: snapshot.incompleteReasons,
      duplicates: remoteDuplicates.length,
      unkeyed: remoteUnkeyed.length,
    },
    plan: planCounts(plan),
    changes: feed.planned.fieldChanges,
    guard: { ok: verdict.ok, reasons: verdict.reasons, forced: verdict.forced },
    wipes: wipesSummary(wipeLimits, guard.wipes),
    ...(shape === undefined ? {} : { shape: shape.summary }),
    ...(hosting === undefined ? {} : { photos: hosting.counts() }),
  };
  const shown = displaySummaryOf(feed.stats.display, feed.planned.displayBlanks, display);
  if (shown !== undefined) summary.display = shown;
  const outcome: SyncOutcome = { summary, plan, rejected: feed.rejected, remoteDuplicates, remoteUnkeyed };
  // Why from the shape: it already counts the rows whose Images came from the feed, at no cost per row.
  if (hosting === undefined && replication === undefined && (openedFeed.shape()?.fields.Images ?? 0) > 0) outcome.photosLinked = true;

  const gone = plan.deletes.filter((planned) => planned.reason === 'gone').length;
  const finish = async (enqueued: boolean): Promise<SyncOutcome> => {
    if (replication && side.replication) {
      const ended = { runId, enqueued, refused: !request.dryRun && !verdict.ok, deleted: enqueued ? gone : 0 };
      outcome.replication = await finishReplication(side.replication, request, replication, ended);
      // Why every run's: the dashboard and `runs show` show what each pull fetched and spent (records,
      // requests, bytes, watermark); a budget halt also makes the chatbot's health `budget`.
      if (!request.dryRun) await deps.stores.recordReplication?.(summary, outcome.replication);
    }
    await deps.report?.(outcome);
    return outcome;
  };
  if (request.dryRun) {
    summary.finishedAt = new Date(deps.now()).toISOString();
    return await finish(false);
  }
  if (!verdict.ok) {
    summary.finishedAt = new Date(deps.now()).toISOString();
    deps.logger.error(
      { runId, chatbot: request.chatbot, reasons: verdict.reasons },
      'sync refused by the safety guard; nothing was changed',
    );
    await deps.stores.saveRun(outcome);
    return await finish(false);
  }
  deps.progress?.planned?.(summary);
  await deps.stores.saveRun(outcome);
  await shapes.record(runId, startedAt, openedFeed.shape());
  await deps.stores.adopt(request.chatbot, request.keyType, runId, adopt);
  summary.plan.adopted = adopt.length;
  summary.jobs = await enqueueRunJobs(plan, runId, deps.enqueue);
  // Why once queued: the listing leaves the chatbot now, so its objects may go once no other listing shows them.
  const forget = side.photos ?? replicatedPhotos;
  if (gone > 0) await forget?.forget(plan.deletes.flatMap((planned) => (planned.reason === 'gone' ? [planned.key] : [])));
  // Debug: the command prints the same as its summary; a scheduled run's worker says it in its own line.
  deps.logger.debug({ runId, chatbot: request.chatbot, jobs: summary.jobs, plan: summary.plan }, 'sync planned and enqueued');
  return await finish(true);
}
