/** What every endpoint handler receives: the state, envelope builders and the request parts it needs. */
import type { EnvelopeFactory, HandlerResult } from '../envelope.js';
import type { SimState } from '../state.js';
import type { ReadForms } from '../types.js';

export interface SimContext {
  state: SimState;
  envelopes: EnvelopeFactory;
  maxPageSize: number;
  /** Silent cap on PageSize (SimOptions.pageSizeCap); Infinity when there is none. */
  pageSizeCap: number;
  readForms: ReadForms;
}

export interface EndpointRequest {
  /** The parsed JSON body (undefined for GET). */
  body: unknown;
  /** Path parameter of the table listing. */
  randomCode?: string;
  /** Drift fault decided for this request (list only). */
  drift: boolean;
}

export type EndpointHandler = (ctx: SimContext, request: EndpointRequest) => HandlerResult;

/** The envelope for an unknown chatbot serial number. */
export function chatbotNotFound(ctx: SimContext, serial: string): HandlerResult {
  return ctx.envelopes.fail(404, `chatbot ${serial} not found`);
}
