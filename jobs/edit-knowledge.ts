/** edit-knowledge: one chatbot's knowledge-base change. */
import { z } from 'zod';
import { knowledgeEditSchema, type KnowledgeEdit } from '../src/api/schemas.js';
import type { JobKind } from './support/job-context.js';
import { perChatbotJobSpecs } from './support/per-chatbot-jobs.js';
import { recordFailure, recordNoWrite } from './support/record.js';

export const EDIT_KNOWLEDGE = 'edit-knowledge';

export const editKnowledgeDataSchema = z.object({
  runId: z.string().min(1),
  chatbot: z.string().min(1),
  edit: knowledgeEditSchema,
});
export type EditKnowledgeData = z.infer<typeof editKnowledgeDataSchema>;

export const editKnowledgeJob: JobKind<EditKnowledgeData> = {
  name: EDIT_KNOWLEDGE,
  queue: 'listing-writes',
  schema: editKnowledgeDataSchema,
  async process(ctx, deps) {
    await deps.api.editKnowledge(ctx.data.edit, {});
    await recordNoWrite(ctx, deps, 'edited');
    return { outcome: 'edited' };
  },
  // One job per chatbot of a bulk edit (api-spec 2.2).
  jobsForBodies: (runId, bodies: readonly KnowledgeEdit[]) =>
    perChatbotJobSpecs(EDIT_KNOWLEDGE, bodies, runId, (body) => ({ runId, chatbot: body.serialNumber, edit: body })),
  async onFinalFailure(ctx, deps, failure) {
    await recordFailure(ctx, deps, [], failure, 1);
  },
};
