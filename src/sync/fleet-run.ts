/**
 * `fleet run SOURCE` as a use case: the source read once and fanned out to every chatbot on it.
 * Each chatbot gets its own sync (runSync: its own run id, lease, guards and result) over the
 * records its `where` keeps; a replicated source is pulled once for all (fleet-pull.ts), an
 * `events: true` one reads its EntityEvent log once for all (fleet-events.ts), within the feed's
 * deadline (--feed-timeout). One chatbot's failure or refusal never stops the others: each ends
 * with its own outcome.
 */
import { displaySource } from '../feed/feed-source.js';
import { DEFAULT_FEED_LIMITS } from '../feed/open-feed.js';
import { UrlCopies } from '../feed/url-copies.js';
import { coerceError } from '../shared/errors.js';
import { replicationMapping } from '../feed/reso-api/replication-mapping.js';
import { feedDeadline } from './feed-deadline.js';
import { pullEventsOnce, type FleetEventFigures, type SharedEventPull } from './fleet-events.js';
import { pullOnce, type SharedPullOptions } from './fleet-pull.js';
import type { ReplicationDeps } from './replication-types.js';
import { runSync } from './run-sync.js';
import type { SyncResult } from './summary.js';
import type { SyncDeps } from './sync-deps.js';
import type { SyncRequest } from './sync-request.js';

/** One chatbot's part of a fan-out: its sync's result, or the error its sync ended in. */
export type FleetRunOutcome = { chatbot: string; request: SyncRequest } & ({ result: SyncResult } | { error: Error });

/** What the source's feed server was asked for the whole fan-out (a replicated source only). */
export interface FleetPullFigures {
  requests: number;
  records: number;
  bytes: number;
  /** Where the pull started; absent for a full pull. */
  since?: string;
  /** An `events: true` source: how its one EntityEvent read went. */
  events?: FleetEventFigures;
}

export interface FleetRunResult {
  pull?: FleetPullFigures;
  outcomes: FleetRunOutcome[];
}

export interface FleetRunOptions {
  /** Whether the source sweeps its keys (once, shared like the pull). */
  sweep: boolean;
  /** Where the pulled pages are spooled (the OS temp directory). */
  spoolDir: string;
  /** Told each chatbot's outcome as its sync ends (its jobs may still be running). */
  onOutcome?: (outcome: FleetRunOutcome) => Promise<void> | void;
}

async function syncEach(deps: SyncDeps, requests: readonly SyncRequest[], options: FleetRunOptions): Promise<FleetRunOutcome[]> {
  const outcomes: FleetRunOutcome[] = [];
  // Why one after another: each sync reads its chatbot's whole remote and plans in this process;
  // their jobs are what takes time, and those run in the workers all together anyway.
  for (const request of requests) {
    let outcome: FleetRunOutcome;
    try {
      outcome = { chatbot: request.chatbot, request, result: await runSync(deps, request) };
    } catch (thrown) {
      outcome = { chatbot: request.chatbot, request, error: coerceError(thrown) };
    }
    outcomes.push(outcome);
    await options.onOutcome?.(outcome);
    // Interrupted (SIGINT/SIGTERM): the chatbots not started yet are left for the next run.
    if (deps.signal?.aborted === true) break;
  }
  return outcomes;
}

/** Syncs every request (one per chatbot of the source), the source read or pulled once. */
export async function runFleetSource(deps: SyncDeps, requests: readonly SyncRequest[], options: FleetRunOptions): Promise<FleetRunResult> {
  const first = requests[0];
  if (first?.replicate === undefined) {
    // Why copies: a URL source is then fetched once for all its chatbots, as a replicated one is pulled once.
    const urlCopies = new UrlCopies(options.spoolDir);
    try {
      return { outcomes: await syncEach({ ...deps, urlCopies }, requests, options) };
    } finally {
      urlCopies.close();
    }
  }
  const replicationFor = deps.replicationFor;
  if (replicationFor === undefined) throw new Error('runFleetSource: a replicated source needs deps.replicationFor');
  // Why a deadline of its own: the one pull is the source's feed read; each chatbot's replay then reads a local file.
  const deadline = feedDeadline(deps.signal, deps.feedLimits?.deadlineMs ?? DEFAULT_FEED_LIMITS.deadlineMs);
  const where = `${displaySource(first.feed.source)} (fleet source ${first.fleetSource ?? first.chatbot})`;
  const pullOptions: SharedPullOptions = {
    sweep: options.sweep,
    spoolDir: options.spoolDir,
    keyFields: (await replicationMapping(first.keyType, first.feed.mapping)).keyFields,
    explain: (thrown) => deadline.explain(thrown, where),
  };
  deadline.start();
  let shared: SharedEventPull;
  try {
    shared = await sharedPull(replicationFor(first, deadline.signal), requests, pullOptions);
  } finally {
    deadline.stop();
  }
  try {
    const fanned: SyncDeps = { ...deps, replicationFor: (request, signal) => shared.depsFor(replicationFor(request, signal)) };
    const outcomes = await syncEach(fanned, requests, options);
    const pull: FleetPullFigures = {
      ...shared.figures(),
      ...(shared.since === undefined ? {} : { since: shared.since }),
      ...(shared.events === undefined ? {} : { events: shared.events }),
    };
    return { pull, outcomes };
  } finally {
    shared.close();
  }
}

/** The source's one pull: its EntityEvent log when the source has `events: true`, else by timestamp. */
function sharedPull(source: ReplicationDeps, requests: readonly SyncRequest[], options: SharedPullOptions): Promise<SharedEventPull> {
  const chatbots = requests.map((request) => request.chatbot);
  const { events } = source;
  if (requests[0]?.replicate?.events === true && events !== undefined) return pullEventsOnce({ ...source, events }, chatbots, options);
  return pullOnce(source, chatbots, options);
}
