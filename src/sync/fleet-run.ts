/**
 * `fleet run SOURCE` as a use case: the source read once and fanned out to every chatbot on it.
 * Each chatbot gets its own sync (runSync: its own run id, lease, guards and result) over the
 * records its `where` keeps; a replicated source is pulled once for all (fleet-pull.ts). One
 * chatbot's failure or refusal never stops the others: each ends with its own outcome.
 */
import { displaySource } from '../feed/feed-source.js';
import { DEFAULT_FEED_LIMITS } from '../feed/open-feed.js';
import { UrlCopies } from '../feed/url-copies.js';
import { coerceError } from '../shared/errors.js';
import { replicationMapping } from '../feed/reso-api/replication-mapping.js';
import { feedDeadline } from './feed-deadline.js';
import { pullOnce, type SharedPull } from './fleet-pull.js';
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
  // Why the deadline around the shared pull: each chatbot's sync then only replays the spool, so
  // the pull is the one read of the feed --feed-timeout bounds; past it no chatbot's run starts.
  const deadline = feedDeadline(deps.signal, deps.feedLimits?.deadlineMs ?? DEFAULT_FEED_LIMITS.deadlineMs);
  deadline.start();
  const shared: SharedPull = await pullOnce(
    replicationFor(first, deadline.signal),
    requests.map((request) => request.chatbot),
    {
      sweep: options.sweep,
      spoolDir: options.spoolDir,
      keyFields: (await replicationMapping(first.keyType, first.feed.mapping)).keyFields,
    },
  ).finally(() => deadline.stop());
  const failure = shared.sweep?.failure ?? shared.pull?.failure;
  const timedOut = deadline.explain(failure, `${displaySource(first.feed.source)} (fleet source ${first.fleetSource ?? first.chatbot})`);
  if (timedOut !== failure) {
    shared.close();
    throw timedOut;
  }
  try {
    const fanned: SyncDeps = { ...deps, replicationFor: (request, signal) => shared.depsFor(replicationFor(request, signal)) };
    const outcomes = await syncEach(fanned, requests, options);
    return { pull: { ...shared.figures(), ...(shared.since === undefined ? {} : { since: shared.since }) }, outcomes };
  } finally {
    shared.close();
  }
}
