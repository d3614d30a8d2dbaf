/**
 * sync-run: runs a whole sync (import → snapshot → plan → guard → enqueue) inside a worker, for
 * schedules. The sync use case is injected (deps.runSync) so jobs/ does not import src/sync; it
 * checks the stored request and says what came of it. A refused scheduled run is logged at error
 * level: nobody watches a 2 a.m. terminal.
 */
import { z } from 'zod';
import type { JobKind, ScheduledSyncRequest } from './support/job-context.js';

export const SYNC_RUN = 'sync-run';

/** Only the chatbot is checked here; the rest is the sync's own request, checked by the injected runSync. */
export const syncRunDataSchema: z.ZodType<ScheduledSyncRequest> = z.object({ chatbot: z.string().min(1) }).loose();

export const syncRunJob: JobKind<ScheduledSyncRequest> = {
  name: SYNC_RUN,
  queue: 'sync-runs',
  schema: syncRunDataSchema,
  async process(ctx, deps) {
    if (deps.runSync === undefined) throw new Error('sync-run job needs deps.runSync (wire it in the composition root)');
    const { chatbot } = ctx.data;
    const result = await deps.runSync({ ...ctx.data, trigger: 'schedule' });
    const fields = { job: ctx.id, chatbot, runId: result.runId };
    if (result.status === 'skipped')
      deps.logger.warn({ ...fields, reason: result.reason }, `scheduled sync of ${chatbot} skipped: the chatbot is held by another run`);
    else if (result.status === 'refused')
      deps.logger.error({ ...fields, verdict: 'refused', reason: result.reason }, `scheduled sync of ${chatbot} refused`);
    else deps.logger.info(fields, `scheduled sync of ${chatbot} enqueued`);
    return { outcome: 'synced', note: result.runId };
  },
  onFinalFailure(ctx, deps, failure) {
    deps.logger.error(
      { job: ctx.id, chatbot: ctx.data.chatbot, code: failure.code },
      `scheduled sync of ${ctx.data.chatbot} failed: ${failure.message}`,
    );
    return Promise.resolve();
  },
};
