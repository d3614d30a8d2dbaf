/** Endpoints 3–6: create, update, list and delete real-estate listings (api-spec 2.3, 2.4, 4.1, 4.2). */
import { simDeleteRequestSchema, simListingUpdateSchema, simListingWriteSchema, simListRequestSchema } from '../spec/requests.js';
import { renderListing } from '../read-shape.js';
import { validate } from '../validation.js';
import { chatbotNotFound, type EndpointHandler } from './context.js';

const DEFAULT_PAGE_SIZE = 20;

export const createListing: EndpointHandler = (ctx, { body }) => {
  const parsed = validate(simListingWriteSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  if (!ctx.state.hasChatbot(parsed.value.SerialNumber)) return chatbotNotFound(ctx, parsed.value.SerialNumber);
  // Why no duplicate check: a naive real service stores a second listing with the same
  // MLSNumber; clients must not rely on the service to deduplicate.
  return ctx.envelopes.ok(ctx.state.createFromApi(parsed.value));
};

export const updateListing: EndpointHandler = (ctx, { body }) => {
  const parsed = validate(simListingUpdateSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  const { Key, KeyType, ...fields } = parsed.value;
  if (!ctx.state.hasChatbot(fields.SerialNumber)) return chatbotNotFound(ctx, fields.SerialNumber);
  return ctx.envelopes.ok(ctx.state.update(fields.SerialNumber, KeyType, Key, fields));
};

export const listListings: EndpointHandler = (ctx, { body, drift }) => {
  const parsed = validate(simListRequestSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  const { SerialNumber, PageNumber = 1, PageSize: asked = DEFAULT_PAGE_SIZE, ...filter } = parsed.value;
  if (asked > ctx.maxPageSize) {
    return ctx.envelopes.fail(400, `PageSize: must be at most ${ctx.maxPageSize} (got ${asked})`);
  }
  if (!ctx.state.hasChatbot(SerialNumber)) return chatbotNotFound(ctx, SerialNumber);
  if (drift) ctx.state.drift(SerialNumber);
  const matching = ctx.state.query(SerialNumber, filter);
  // Why offsets in the capped size: a service that caps silently pages by the size it serves.
  const PageSize = Math.min(asked, ctx.pageSizeCap);
  const page = matching.slice((PageNumber - 1) * PageSize, PageNumber * PageSize);
  return ctx.envelopes.ok({ List: page.map((listing) => renderListing(listing, ctx.readForms)), VirtualCount: matching.length });
};

export const deleteListings: EndpointHandler = (ctx, { body }) => {
  const parsed = validate(simDeleteRequestSchema, body);
  if (!parsed.ok) return ctx.envelopes.fail(400, parsed.message);
  const { SerialNumber, Keys, KeyType } = parsed.value;
  if (!ctx.state.hasChatbot(SerialNumber)) return chatbotNotFound(ctx, SerialNumber);
  // Why a key already gone counts 0 and is no error: deletes must be safe to repeat.
  const SuccessCount = Keys.filter((key) => ctx.state.deleteByKey(SerialNumber, KeyType, key) > 0).length;
  return ctx.envelopes.ok({ SuccessCount });
};
