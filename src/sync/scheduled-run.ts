/**
 * The sync-run job's use case (a schedule's occurrence): its stored request parsed and run with
 * trigger 'schedule', and what came of it for the job to log. A schedule that finds its chatbot
 * held by another run records a `skipped` run instead (see run-records.ts).
 */
import { errorCode } from '../shared/errors.js';
import type { RunStore } from '../store/runs.js';
import { skippedRun } from './run-records.js';
import { runSync } from './run-sync.js';
import type { SyncDeps } from './sync-deps.js';
import { parseStoredRequest } from './sync-request.js';
import { ErrorCode } from '../shared/error-codes.js';
import { isFanOutPayload, scheduledFanOut } from './fleet-schedule.js';
import type { ScheduledRun } from '../domain/scheduled-run.js';

/** Runs a schedule's stored request (`payload`, checked here) as a scheduled sync. */
export function scheduledRunSync(
  deps: SyncDeps,
  runs: Pick<RunStore, 'createRun'>,
): (payload: { chatbot: string }) => Promise<ScheduledRun> {
  const fanOut = scheduledFanOut(deps, runs);
  return async (payload) => {
    // A fleet source's one schedule: its fan-out (fleet-schedule.ts).
    if (isFanOutPayload(payload)) return await fanOut(payload);
    const request = { ...parseStoredRequest(payload, `scheduled sync of ${payload.chatbot}`), trigger: 'schedule' as const, dryRun: false };
    try {
      const { summary } = await runSync(deps, request);
      if (summary.guard.ok) return { runId: summary.runId, status: 'enqueued' };
      return { runId: summary.runId, status: 'refused', reason: summary.guard.reasons.join('; ') };
    } catch (thrown) {
      if (errorCode(thrown) !== ErrorCode.CHATBOT_BUSY) throw thrown;
      const reason = thrown instanceof Error ? thrown.message : String(thrown);
      const run = skippedRun(request.chatbot, deps.newRunId(), deps.now(), reason);
      await runs.createRun(run);
      return { runId: run.id, status: 'skipped', reason };
    }
  };
}
