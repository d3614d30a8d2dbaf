/** edit-chatbot: one chatbot's settings change (bulk edits enqueue one per chatbot). */
import { z } from 'zod';
import { chatbotSettingsSchema, type ChatbotSettings } from '../src/api/schemas.js';
import type { JobKind } from './support/job-context.js';
import { perChatbotJobSpecs } from './support/per-chatbot-jobs.js';
import { recordFailure, recordNoWrite } from './support/record.js';

export const EDIT_CHATBOT = 'edit-chatbot';

export const editChatbotDataSchema = z.object({
  runId: z.string().min(1),
  chatbot: z.string().min(1),
  settings: chatbotSettingsSchema,
});
export type EditChatbotData = z.infer<typeof editChatbotDataSchema>;

export const editChatbotJob: JobKind<EditChatbotData> = {
  name: EDIT_CHATBOT,
  queue: 'listing-writes',
  schema: editChatbotDataSchema,
  async process(ctx, deps) {
    await deps.api.editChatbot(ctx.data.settings, {});
    await recordNoWrite(ctx, deps, 'edited');
    return { outcome: 'edited' };
  },
  // One job per chatbot of a bulk edit (api-spec 2.1).
  jobsForBodies: (runId, bodies: readonly ChatbotSettings[]) =>
    perChatbotJobSpecs(EDIT_CHATBOT, bodies, runId, (body) => ({ runId, chatbot: body.serialNumber, settings: body })),
  async onFinalFailure(ctx, deps, failure) {
    await recordFailure(ctx, deps, [], failure, 1);
  },
};
