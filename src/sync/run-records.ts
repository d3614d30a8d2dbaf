/**
 * The run records a sync use case starts: a sync's (from its outcome), a scheduled sync's that
 * was skipped, and a bulk edit's (settings or knowledge bases). Each decides the run's first status; the store keeps it.
 */
import type { NewRun } from '../store/run-types.js';
import type { SyncOutcome } from './summary.js';
import { plural } from '../shared/counts.js';

/** The run record a sync outcome starts. Why refused runs are final at once: nothing was enqueued, so nothing will end them. */
export function runFromOutcome(outcome: SyncOutcome): NewRun {
  const { summary } = outcome;
  const refused = !summary.guard.ok;
  const run: NewRun = {
    id: summary.runId,
    chatbot: summary.chatbot,
    trigger: summary.trigger,
    forced: summary.guard.forced,
    status: refused ? 'refused' : 'enqueuing',
    startedAt: Date.parse(summary.startedAt),
    summary,
    rejected: outcome.rejected,
    rejectedCount: summary.feed.rejected,
  };
  if (refused) run.finishedAt = summary.finishedAt === undefined ? Date.now() : Date.parse(summary.finishedAt);
  return run;
}

/**
 * The record of a scheduled sync that found its chatbot held by another run. Why a record: the
 * nightly sync firing during a manual migration must neither run beside it nor vanish silently.
 */
export function skippedRun(chatbot: string, runId: string, now: number, reason: string): NewRun {
  return {
    id: runId,
    chatbot,
    trigger: 'schedule',
    forced: false,
    status: 'skipped',
    startedAt: now,
    finishedAt: now,
    summary: { skipped: reason },
  };
}

/**
 * The run of a bulk edit (`chatbot edit --many`, `chatbot knowledge --many`): one run for every
 * chatbot's edit job, named after its chatbot when there is one, else after how many there are.
 */
export function chatbotEditsRun(serials: readonly string[], runId: string, now: number): NewRun {
  const chatbot = serials.length === 1 ? (serials[0] ?? '') : plural(serials.length, 'chatbot');
  return { id: runId, chatbot, trigger: 'cli', forced: false, status: 'running', startedAt: now };
}
