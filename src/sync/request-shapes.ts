/**
 * The request bodies an operator's input is checked against before anything is queued or sent:
 * the service client's own schemas (src/api/schemas.ts, api-spec section 2), named here so that
 * cli checks its flags and files through sync rather than reaching into the adapter.
 */
export { chatbotSettingsSchema, knowledgeEditSchema, listingUpdateSchema, listingWriteSchema } from '../api/schemas.js';
