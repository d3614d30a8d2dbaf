/** Endpoint 7: the data tables of a project (api-spec 2.6, 4.3). An unknown code lists nothing. */
import type { EndpointHandler } from './context.js';

export const listTables: EndpointHandler = (ctx, { randomCode }) => ctx.envelopes.ok(ctx.state.tables(randomCode ?? ''));
