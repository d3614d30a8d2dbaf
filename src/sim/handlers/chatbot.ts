/** Endpoints 1–2: edit a chatbot's settings and its knowledge base (api-spec 2.1, 2.2, 4.4.1). */
import { simChatbotSettingsSchema as chatbotSettingsSchema, simKnowledgeEditSchema as knowledgeEditSchema } from '../spec/requests.js';
import { validate } from '../validation.js';
import { chatbotNotFound, type EndpointHandler } from './context.js';

export const editChatbot: EndpointHandler = (ctx, { body }) => {
  const parsed = validate(chatbotSettingsSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  if (!ctx.state.hasChatbot(parsed.value.serialNumber)) return chatbotNotFound(ctx, parsed.value.serialNumber);
  ctx.state.saveSettings(parsed.value);
  return ctx.envelopes.ok(1);
};

export const editKnowledge: EndpointHandler = (ctx, { body }) => {
  const parsed = validate(knowledgeEditSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  if (!ctx.state.hasChatbot(parsed.value.serialNumber)) return chatbotNotFound(ctx, parsed.value.serialNumber);
  ctx.state.saveKnowledge(parsed.value);
  return ctx.envelopes.ok(true);
};
