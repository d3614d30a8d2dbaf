/**
 * sync-run: runs a whole sync (import → snapshot → plan → guard → enqueue) inside a worker, for
 * schedules. The sync use case is injected (deps.runSync) so jobs/ does not import src/sync.
 * A refused or failed scheduled run is logged at error level: nobody watches a 2 a.m. terminal.
 */
import { z } from 'zod';
import type { JobKind, ScheduledSyncRequest } from './support/job-context.js';

export const SYNC_RUN = 'sync-run';

/** Only the chatbot is checked here; the rest is the sync's own request, checked by runSync. */
export const syncRunDataSchema: z.ZodType<ScheduledSyncRequest> = z.object({ chatbot: z.string().min(1) }).loose();

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Whether a sync result says the run was refused or ended with failures. */
function badResult(result: unknown): string | undefined {
  const status = field(result, 'status');
  if (status === 'refused' || status === 'failed' || status === 'skipped') return String(status);
  const summary = field(result, 'summary') ?? result;
  if (field(field(summary, 'guard'), 'ok') === false) return 'refused';
  const failed = field(field(result, 'counts'), 'failed') ?? field(field(summary, 'result'), 'failed');
  if (typeof failed === 'number' && failed > 0) return `${failed} failed`;
  return undefined;
}

export const syncRunJob: JobKind<ScheduledSyncRequest> = {
  name: SYNC_RUN,
  schema: syncRunDataSchema,
  async process(ctx, deps) {
    if (deps.runSync === undefined) throw new Error('sync-run job needs deps.runSync (wire it in the composition root)');
    const result = await deps.runSync({ ...ctx.data, trigger: 'schedule' });
    const runId = field(result, 'runId') ?? field(field(result, 'summary'), 'runId');
    const bad = badResult(result);
    if (bad === 'skipped') deps.logger.warn({ job: ctx.id, chatbot: ctx.data.chatbot, runId, reason: field(result, 'reason') }, `scheduled sync of ${ctx.data.chatbot} skipped: the chatbot is held by another run`);
    else if (bad !== undefined) deps.logger.error({ job: ctx.id, chatbot: ctx.data.chatbot, runId, verdict: bad }, `scheduled sync of ${ctx.data.chatbot} ${bad}`);
    else deps.logger.info({ job: ctx.id, chatbot: ctx.data.chatbot, runId }, `scheduled sync of ${ctx.data.chatbot} enqueued`);
    return { outcome: 'synced', ...(typeof runId === 'string' ? { note: runId } : {}) };
  },
  async onFinalFailure(ctx, deps, failure) {
    deps.logger.error({ job: ctx.id, chatbot: ctx.data.chatbot, code: failure.code }, `scheduled sync of ${ctx.data.chatbot} failed: ${failure.message}`);
  },
};
