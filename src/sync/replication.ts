/**
 * The replication side of a sync (`--replicate`): where the pull starts (the stored watermark),
 * the optional key sweep, and what is recorded when the run ends. The watermark advances only
 * after the plan was enqueued, so a crash between pulling and enqueueing pulls the same records
 * again next time rather than losing them.
 */
import { replicatedFeed, sweptKeys, type ReplicatedFeed } from '../feed/reso-api/replicated-feed.js';
import type { Plan } from '../domain/plan.js';
import type { Logger } from '../runtime/logger.js';
import type { ReplicationRun } from '../feed/reso-api/replicate.js';
import type { FeedRunStatus, FeedSourceStore } from '../store/feed-sources.js';
import type { SyncRequest } from './sync-request.js';
import type { DisplaySettings } from '../feed/display-step.js';

/** What the composition root gives a replicating sync: the pull (auth, budget and paging wired) and the source records. */
export interface ReplicationDeps {
  /** Starts a pull since `watermark` (everything when absent), or a key sweep. */
  start(options: { watermark?: string; sweep: boolean }): ReplicationRun;
  sources: Pick<FeedSourceStore, 'show' | 'advanceWatermark' | 'recordRun'>;
  /** The source id of (chatbot, feed): replicationFeedId(feed URL). */
  feedId: string;
}

/** A replication under way. */
export interface StartedReplication {
  feed: ReplicatedFeed;
  /** Keys of a completed sweep; undefined without --sweep or when the sweep did not complete. */
  sweptKeys?: ReadonlySet<string>;
  /** Set with --sweep: whether the sweep completed. */
  sweep?: { complete: boolean; requests: number; bytes: number };
}

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
  /** Why the pull stopped early (BUDGET_EXHAUSTED), in one line. */
  halted?: string;
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

/**
 * What a replicating run has under way, filled in as it starts: a run that fails records what the
 * sweep and the pull had spent by then (their requests reached the MLS and count against its budget).
 */
export interface ReplicationProgress {
  /** The key sweep, once started (also when it then failed). */
  sweepRun?: ReplicationRun;
  /** The pull, once the sweep (if any) is done. */
  started?: StartedReplication;
}

/** Reads the watermark and, with --sweep, pulls every key first; returns the pull as a feed. */
export async function startReplication(
  deps: ReplicationDeps,
  request: SyncRequest,
  progress: ReplicationProgress = {},
  display?: DisplaySettings,
): Promise<StartedReplication & { since?: string }> {
  const source = await deps.sources.show(request.chatbot, deps.feedId);
  const since = source?.watermark;
  let sweep: StartedReplication['sweep'];
  let keys: ReadonlySet<string> | undefined;
  if (request.replicate?.sweep === true) {
    // Why the sweep first: its keys are complete (or not) before planning starts, and a record
    // created during the pull is seen by the pull itself, so it is never taken for gone.
    const run = deps.start({ sweep: true });
    progress.sweepRun = run;
    keys = await sweptKeys(run, request.keyType === 'MLSNumber' ? 'ListingId' : 'ListingURL');
    const { requests, bytes } = run.result();
    sweep = { complete: keys !== undefined, requests, bytes };
  }
  const pull = deps.start(since === undefined ? { sweep: false } : { watermark: since, sweep: false });
  const feed = replicatedFeed(pull, request.keyType, request.feed.where, display);
  return {
    feed,
    ...(keys === undefined ? {} : { sweptKeys: keys }),
    ...(sweep ? { sweep } : {}),
    ...(since === undefined ? {} : { since }),
  };
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
  const halt = started.feed.halt();
  const status: FeedRunStatus = ended.refused ? 'refused' : halt !== undefined ? 'budget-exhausted' : 'done';
  let watermark = started.since;
  if (ended.enqueued && result.maxTimestamp !== undefined)
    watermark = (await deps.sources.advanceWatermark(request.chatbot, deps.feedId, result.maxTimestamp)).watermark;
  const sweep =
    started.sweep === undefined ? undefined : { complete: started.sweep.complete, deleted: started.sweep.complete ? ended.deleted : 0 };
  const outcome: ReplicationOutcome = {
    status,
    recordsPulled: result.records,
    requests: result.requests + (started.sweep?.requests ?? 0),
    bytes: result.bytes + (started.sweep?.bytes ?? 0),
    ...(watermark === undefined ? {} : { watermark }),
    ...(started.since === undefined ? {} : { since: started.since }),
    ...(sweep ? { sweep } : {}),
    ...(halt === undefined ? {} : { halted: halt.message }),
  };
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
      requests: (pull?.requests ?? 0) + (swept?.requests ?? 0),
      bytes: (pull?.bytes ?? 0) + (swept?.bytes ?? 0),
      // A failed run deletes nothing, whether its sweep completed or not.
      ...(progress.sweepRun === undefined ? {} : { sweep: { complete: progress.started?.sweep?.complete ?? false, deleted: 0 } }),
    });
  } catch (thrown) {
    logger.warn({ runId, chatbot: request.chatbot, err: thrown }, 'could not record the failed replication run');
  }
}
