/** edit-chatbot: one chatbot's settings change (bulk edits enqueue one per chatbot). */
import { z } from 'zod';
import { chatbotSettingsSchema } from '../src/api/schemas.js';
import type { JobKind } from './support/job-context.js';
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
  async onFinalFailure(ctx, deps, failure) {
    await recordFailure(ctx, deps, [], failure, 1);
  },
};
