/**
 * From a stored status to a new verdict: what is stored next and which alert (if any) is sent.
 * Pure; the store applies it with a compare-and-set so concurrent evaluators agree.
 */
import type { AlertEvent, HealthStatus, HealthVerdict } from './status.js';

/** What is kept per chatbot (and per alert configuration): the status and since when. */
export interface HealthState {
  status: HealthStatus;
  /** When the status began (epoch ms). */
  since: number;
  /** The run that put it there (for stale: the last successful run), if any. */
  runId?: string;
  /** Consecutive evaluations that found this status with a new run (the streak shown on the health page). */
  streak: number;
}

export interface HealthChange {
  next: HealthState;
  /** The alert this change sends; undefined when nothing is said (no change, or a chatbot's first healthy run). */
  event?: AlertEvent;
  /** A stable id of the change (BullMQ job ids are built from it, so a change is announced once whoever sees it). */
  changeId: string;
}

/** The alert a status change announces. */
export function eventOf(status: HealthStatus): AlertEvent {
  return status === 'healthy' ? 'recovered' : status;
}

/**
 * The next state for `verdict`, or undefined when nothing changes (same status, same run).
 * The first status a chatbot ever gets is announced unless it is healthy: a new chatbot's first
 * successful run is no news. A status that repeats with a newer run only lengthens the streak.
 */
export function transition(previous: HealthState | undefined, verdict: HealthVerdict, now: number): HealthChange | undefined {
  const runId = verdict.run?.runId;
  // Why an outage is named by its start: two outages during one run are two changes to announce.
  const changeId = verdict.status === 'service-down' ? `service-down.${verdict.since ?? 0}` : `${verdict.status}.${runId ?? 'none'}`;
  if (previous !== undefined && previous.status === verdict.status) {
    if (previous.runId === runId || verdict.status === 'stale' || verdict.status === 'service-down') return undefined;
    return { next: { ...previous, ...(runId === undefined ? {} : { runId }), streak: previous.streak + 1 }, changeId };
  }
  // Since when: the run's end says when the chatbot got there; a stale chatbot got there now.
  const since = verdict.status === 'stale' ? now : (verdict.since ?? verdict.run?.finishedAt ?? verdict.run?.startedAt ?? now);
  const next: HealthState = { status: verdict.status, since, ...(runId === undefined ? {} : { runId }), streak: 1 };
  if (previous === undefined && verdict.status === 'healthy') return { next, changeId };
  return { next, event: eventOf(verdict.status), changeId };
}
