/**
 * The per-chatbot health status machine (pure): which status a chatbot's newest runs put it in,
 * and which alert a change of status sends. No clock, no I/O: `now` and the runs are passed in.
 *
 * Statuses: healthy (its newest run did what the feed says), refused (the guard refused it),
 * failed (jobs failed for good, the run ended unfinished, or more than `failedRowsPercent` of the
 * feed's rows failed), skipped (a scheduled run found the chatbot busy), budget (a feed request
 * budget ran out before the pull was complete), stale (no successful run within `staleAfterMs`, or the
 * display policy's maxStaleHours the newest run was read under when that is stricter),
 * service-down (a run of it is paused because the service is down for everyone).
 */
import { endedUnfinished, runFailed } from '../run-outcome.js';
import { plural } from '../../shared/counts.js';

export const HEALTH_STATUSES = ['healthy', 'refused', 'failed', 'skipped', 'stale', 'budget', 'service-down'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** What an alert announces: a status entered, or `recovered` (back to healthy). */
export const ALERT_EVENTS = ['refused', 'failed', 'recovered', 'skipped', 'stale', 'budget', 'service-down'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** The facts of one run the machine needs (built from a run record by src/sync). Times in epoch ms. */
export interface RunFacts {
  runId: string;
  /** The run record's status (planned, running, done, failed, refused, skipped, cancelled, stuck, …). */
  status: string;
  startedAt: number;
  finishedAt?: number;
  counts: { created: number; updated: number; deleted: number; failed: number };
  /** Feed rows read and rejected (absent for runs without a sync summary). */
  feed?: { rows: number; rejected: number };
  /** Why the guard refused it. */
  guardReasons: readonly string[];
  /** Why a scheduled run was skipped. */
  skippedReason?: string;
  /** Set when a replicating run stopped because its feed request budget ran out (the message). */
  budgetExhausted?: string;
  /** Set when a replicating run's feed server served fewer records than it counted (the message). */
  pullIncomplete?: string;
  /** The display policy's maxStaleHours the run was read under, in ms: the MLS's refresh limit for the chatbot. */
  maxStaleMs?: number;
}

export interface HealthThresholds {
  /**
   * A run that rejected more than this share of the feed's rows (percent) is failed; unset: rejected rows never are.
   * Failed jobs always are.
   */
  failedRowsPercent?: number;
  /** Stale when the newest successful run finished longer ago than this. */
  staleAfterMs: number;
}

/** Default thresholds (the health page's): a job failed for good is a failure; stale after 26 h (a nightly run plus slack). */
export const DEFAULT_THRESHOLDS: Readonly<HealthThresholds> = { staleAfterMs: 26 * 3_600_000 };

/** The status a chatbot's runs put it in, the run that decided it, and why in words. */
export interface HealthVerdict {
  status: HealthStatus;
  /** The run that decided it (for stale: the newest run, if any). */
  run?: RunFacts;
  /** For service-down: when the outage began (each outage is a change of its own). */
  since?: number;
  reasons: string[];
}

const ENDED = new Set(['done', 'failed', 'refused', 'skipped', 'cancelled', 'stuck']);

/** Whether a run has ended (only ended runs say something about health). */
export function hasEnded(run: Pick<RunFacts, 'status'>): boolean {
  return ENDED.has(run.status);
}

function percentOf(part: number, whole: number): number {
  return whole <= 0 ? (part > 0 ? 100 : 0) : (part / whole) * 100;
}

/** The status one ended run stands for (ignoring staleness). */
export function statusOfRun(run: RunFacts, thresholds: HealthThresholds): { status: HealthStatus; reasons: string[] } {
  if (run.status === 'refused') return { status: 'refused', reasons: [...run.guardReasons] };
  if (run.status === 'skipped') return { status: 'skipped', reasons: run.skippedReason === undefined ? [] : [run.skippedReason] };
  if (run.budgetExhausted !== undefined) return { status: 'budget', reasons: [run.budgetExhausted] };
  // Why failed: unlike a budget, the server's shortfall does not end by waiting; someone must ask the MLS.
  if (run.pullIncomplete !== undefined) return { status: 'failed', reasons: [run.pullIncomplete] };
  // Whether the run failed is the one rule's to say (domain/run-outcome.ts); the words say which way.
  if (runFailed({ status: run.status, failedJobs: run.counts.failed }))
    return {
      status: 'failed',
      reasons: [endedUnfinished(run.status) ? `the run ended ${run.status}` : `${plural(run.counts.failed, 'listing')} failed for good`],
    };
  const limit = thresholds.failedRowsPercent;
  const rows = run.feed?.rows ?? 0;
  const rejected = run.feed?.rejected ?? 0;
  // Why rejected rows count only past a threshold: a few bad rows in a big feed are normal and
  // hold their listings; a feed that goes bad wholesale is a failure someone must look at.
  if (limit !== undefined && rejected > 0 && percentOf(rejected, rows) > limit)
    return {
      status: 'failed',
      reasons: [`${rejected} of ${rows} feed rows were rejected (${percentOf(rejected, rows).toFixed(1)}%, more than ${limit}%)`],
    };
  return { status: 'healthy', reasons: [] };
}

/** The newest ended run that was healthy, or undefined. */
export function lastHealthyRun(runs: readonly RunFacts[], thresholds: HealthThresholds): RunFacts | undefined {
  return runs.find((run) => hasEnded(run) && statusOfRun(run, thresholds).status === 'healthy');
}

/** The service breaker open (src/queue/service-breaker.ts): since when (epoch ms) and why. */
export interface ServiceOutage {
  since: number;
  reason: string;
}

/**
 * A chatbot's status from its runs (newest first) and the service: while the service is down
 * (`outage`) a chatbot whose newest run is still going is service-down (that run waits for the
 * service, and says nothing yet about the chatbot); otherwise the newest ended run decides; a healthy
 * chatbot whose newest successful run ended longer ago than `staleAfterMs` is stale (its schedule
 * stopped producing runs, or only runs that never end). Undefined when no run ended yet.
 * Why stale only replaces healthy: a failing chatbot already alerted, and flipping it to stale
 * would alert again about the same trouble.
 */
export function deriveHealth(
  runs: readonly RunFacts[],
  now: number,
  thresholds: HealthThresholds,
  outage?: ServiceOutage,
): HealthVerdict | undefined {
  const latest = runs[0];
  if (outage !== undefined && latest !== undefined && !hasEnded(latest))
    return {
      status: 'service-down',
      run: latest,
      since: outage.since,
      reasons: [`the service is down since ${new Date(outage.since).toISOString()} (${outage.reason}); run ${latest.runId} waits for it`],
    };
  const newest = runs.find(hasEnded);
  if (newest === undefined) return undefined;
  const verdict = statusOfRun(newest, thresholds);
  if (verdict.status !== 'healthy') return { status: verdict.status, run: newest, reasons: verdict.reasons };
  const healthy = lastHealthyRun(runs, thresholds) ?? newest;
  const endedAt = healthy.finishedAt ?? healthy.startedAt;
  // Why the stricter limit: an MLS's display rules may require a refresh more often (often every 12 h) than the alert watches for.
  const mls = newest.maxStaleMs !== undefined && newest.maxStaleMs < thresholds.staleAfterMs ? newest.maxStaleMs : undefined;
  if (now - endedAt > (mls ?? thresholds.staleAfterMs)) {
    const hours = Math.round(((now - endedAt) / 3_600_000) * 10) / 10;
    const limit = mls === undefined ? '' : `; the display policy's maxStaleHours is ${mls / 3_600_000}`;
    return {
      status: 'stale',
      run: healthy,
      reasons: [`no successful run for ${hours} h (last one ${new Date(endedAt).toISOString()})${limit}`],
    };
  }
  return { status: 'healthy', run: newest, reasons: [] };
}
