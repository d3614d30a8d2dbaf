/**
 * A fleet source's schedule: one occurrence runs the source's fan-out in a worker (as `fleet run
 * SOURCE` does), so the source is pulled once per occurrence however many chatbots are on it. Its
 * stored payload holds each chatbot's whole request (built by `fleet apply` from the file, as a
 * chatbot's own schedule would hold it), checked again here when it fires.
 */
import { tmpdir } from 'node:os';
import { z } from 'zod';
import { ErrorCode } from '../shared/error-codes.js';
import { errorCode, ListingSyncError } from '../shared/errors.js';
import { issueLines } from '../shared/zod-issues.js';
import type { RunStore } from '../store/runs.js';
import { runFleetSource, type FleetRunOutcome } from './fleet-run.js';
import { skippedRun } from './run-records.js';
import type { ScheduledRun } from '../domain/scheduled-run.js';
import type { SyncDeps } from './sync-deps.js';
import { syncRequestSchema, type SyncRequest } from './sync-request.js';

const fanOutPayloadSchema = z.object({
  /** Every chatbot of the source, comma-separated: what the sync-run job and `schedule list` name. */
  chatbot: z.string().min(1),
  fleetRun: z.object({ source: z.string().min(1), sweep: z.boolean(), requests: z.array(syncRequestSchema).min(1) }),
});

export type FanOutPayload = z.infer<typeof fanOutPayloadSchema>;

/** The payload of a source's schedule: its chatbots' requests in name order. */
export function fanOutPayload(source: string, sweep: boolean, requests: readonly SyncRequest[]): FanOutPayload {
  const sorted = [...requests].sort((a, b) => a.chatbot.localeCompare(b.chatbot));
  return { chatbot: sorted.map((request) => request.chatbot).join(','), fleetRun: { source, sweep, requests: sorted } };
}

/** Whether a sync-run job's payload is a fleet source's fan-out rather than one chatbot's sync. */
export function isFanOutPayload(payload: object): boolean {
  return 'fleetRun' in payload;
}

function parsed(payload: unknown): FanOutPayload {
  const result = fanOutPayloadSchema.safeParse(payload);
  if (result.success) return result.data;
  const problems = issueLines(result.error.issues, { whole: 'payload' }).join('; ');
  throw new ListingSyncError(
    ErrorCode.INVALID_INPUT,
    `scheduled fan-out: the stored requests are not ones this version can run (${problems}); apply the fleet file again`,
  );
}

/** The code of a chatbot's failure, as an ErrorCode (UNKNOWN for a thrown thing without one). */
function errorCodeOf(error: Error): ErrorCode {
  const code = errorCode(error);
  return (Object.values(ErrorCode) as string[]).includes(code) ? (code as ErrorCode) : ErrorCode.UNKNOWN;
}

/** One chatbot's line in the occurrence's result. */
const described = (outcome: FleetRunOutcome): string =>
  `${outcome.chatbot}: ${'error' in outcome ? outcome.error.message : outcome.result.summary.guard.reasons.join(' ')}`;

/**
 * Runs a source's scheduled fan-out. A chatbot held by another run gets a `skipped` run (as a
 * chatbot's own schedule does); a chatbot whose sync failed fails the occurrence (logged at error
 * level by the job, naming it) once every other chatbot had its turn.
 */
export function scheduledFanOut(deps: SyncDeps, runs: Pick<RunStore, 'createRun'>): (payload: object) => Promise<ScheduledRun> {
  return async (payload) => {
    const { fleetRun } = parsed(payload);
    const requests = fleetRun.requests.map((request) => ({ ...request, trigger: 'schedule' as const, dryRun: false }));
    const ran = await runFleetSource(deps, requests, { sweep: fleetRun.sweep, spoolDir: tmpdir() });
    const runIds: string[] = [];
    const refused: FleetRunOutcome[] = [];
    const failed: FleetRunOutcome[] = [];
    for (const outcome of ran.outcomes) {
      if ('result' in outcome) {
        runIds.push(outcome.result.summary.runId);
        if (!outcome.result.summary.guard.ok) refused.push(outcome);
      } else if (errorCode(outcome.error) === ErrorCode.CHATBOT_BUSY) {
        const run = skippedRun(outcome.chatbot, deps.newRunId(), deps.now(), outcome.error.message);
        await runs.createRun(run);
        runIds.push(run.id);
      } else failed.push(outcome);
    }
    if (failed.length > 0) {
      const first = failed[0] as Extract<FleetRunOutcome, { error: Error }>;
      throw new ListingSyncError(errorCodeOf(first.error), `source ${fleetRun.source}: ${failed.map(described).join('; ')}`);
    }
    const runId = runIds.join(',');
    if (refused.length > 0) return { runId, status: 'refused', reason: refused.map(described).join('; ') };
    const skipped = ran.outcomes.every((outcome) => 'error' in outcome);
    return skipped ? { runId, status: 'skipped', reason: ran.outcomes.map(described).join('; ') } : { runId, status: 'enqueued' };
  };
}
