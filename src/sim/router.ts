/**
 * The request pipeline, free of node:http: route → scripted delay → method → auth →
 * Content-Type → injected failures → JSON → handler → (maybe) drop. Returns what the adapter
 * must do and records the call in the log.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIM_ENDPOINTS as ENDPOINTS, ENDPOINT_NAMES, type EndpointName } from './spec/endpoints.js';
import { authorize } from './auth.js';
import type { HandlerResult } from './envelope.js';
import type { FaultDecision } from './faults.js';
import { resetSimCounters, setSimFaults, simStateView } from './handlers/admin.js';
import { editChatbot, editKnowledge } from './handlers/chatbot.js';
import type { EndpointHandler, SimContext } from './handlers/context.js';
import { createListing, deleteListings, listListings, updateListing } from './handlers/listings.js';
import { listTables } from './handlers/tables.js';
import { WRITE_ENDPOINTS } from './metrics.js';
import type { SimCredentials } from './types.js';

const HANDLERS: Record<EndpointName, EndpointHandler> = {
  editChatbot,
  editKnowledge,
  createListing,
  updateListing,
  listListings,
  deleteListings,
  listTables,
};

export interface SimRequest {
  method: string;
  pathname: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Outcome = { kind: 'answer'; result: HandlerResult } | { kind: 'drop' };

/** Whether a request counts as traffic to the service (admin requests do not). */
export function isServiceRequest(pathname: string): boolean {
  return !pathname.startsWith('/__sim/');
}

type Route = { endpoint: EndpointName; randomCode?: string };

function match(pathname: string): Route | undefined {
  const tablesPrefix = ENDPOINTS.listTables.path;
  if (pathname.startsWith(tablesPrefix) && pathname.length > tablesPrefix.length) {
    const code = pathname.slice(tablesPrefix.length);
    if (!code.includes('/')) return { endpoint: 'listTables', randomCode: decodeURIComponent(code) };
  }
  const endpoint = ENDPOINT_NAMES.find((name) => name !== 'listTables' && ENDPOINTS[name].path === pathname);
  return endpoint && { endpoint };
}

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `malformed JSON body: ${error instanceof Error ? error.message : 'cannot parse'}` };
  }
}

function isJson(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

function routeAdmin(ctx: SimContext, request: SimRequest): HandlerResult {
  const { pathname, method } = request;
  if (pathname === '/__sim/state' && method === 'GET') return simStateView(ctx);
  if (pathname === '/__sim/reset-counters' && method === 'POST') return resetSimCounters(ctx);
  if (pathname === '/__sim/faults' && method === 'POST') {
    const parsed = parseJson(request.body);
    return parsed.ok ? setSimFaults(ctx, parsed.value) : ctx.envelopes.fail(400, parsed.message);
  }
  return ctx.envelopes.fail(404, `no simulator admin route ${method} ${pathname}`, { status: 404 });
}

/** Answers that replace the real one; nothing is done for them. */
function injected(ctx: SimContext, answer: FaultDecision['answer']): HandlerResult | undefined {
  switch (answer) {
    case 'http503':
      return ctx.envelopes.fail(503, 'Service unavailable', { status: 503 });
    case 'envelopeFailure':
      return ctx.envelopes.fail(500, 'Internal error, try again');
    case 'rateLimit':
      return ctx.envelopes.fail(429, 'Too many requests', { status: 429, headers: { 'Retry-After': '1' } });
    case 'normal':
      return undefined;
  }
}

/** The careless service's refusal (SimFaults `echoRequest`): the request quoted whole, three ways. */
function echoed(ctx: SimContext, request: SimRequest, also: string | undefined): HandlerResult {
  const quoted = `headers ${JSON.stringify(request.headers)}; body ${request.body}${also === undefined ? '' : `; also ${also}`}`;
  const encoded = `urlencoded ${encodeURIComponent(quoted)}; base64 ${Buffer.from(quoted).toString('base64')}`;
  return ctx.envelopes.fail(400, `request refused: ${quoted}; ${encoded}`);
}

type Ran = { outcome: Outcome; envelopeCode: number };

async function runEndpoint(
  ctx: SimContext,
  credentials: SimCredentials,
  route: Route,
  request: SimRequest,
  decision: FaultDecision,
): Promise<Ran> {
  const { endpoint } = route;
  const answer = (result: HandlerResult): Ran => ({ outcome: { kind: 'answer', result }, envelopeCode: result.body.Code });
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  const spec = ENDPOINTS[endpoint];
  if (request.method !== spec.method) {
    return answer(ctx.envelopes.fail(405, `${spec.path} takes ${spec.method}, not ${request.method}`, { status: 405 }));
  }
  const auth = authorize(endpoint, request.headers, credentials);
  if (!auth.ok) return answer(ctx.envelopes.fail(401, auth.message, { status: 401 }));
  if (spec.method === 'POST' && !isJson(request.headers)) {
    return answer(ctx.envelopes.fail(415, 'Content-Type must be application/json', { status: 415 }));
  }
  if (decision.echo) return answer(echoed(ctx, request, decision.echoAlso));
  const failure = injected(ctx, decision.answer);
  if (failure) return answer(failure);
  let body: unknown;
  if (spec.method === 'POST') {
    const parsed = parseJson(request.body);
    if (!parsed.ok) return answer(ctx.envelopes.fail(400, parsed.message));
    body = parsed.value;
  }
  const result = HANDLERS[endpoint](ctx, { body, randomCode: route.randomCode, drift: decision.drift });
  // Why: the write is applied and its answer lost — the case that makes blind retries duplicate.
  if (decision.drop && WRITE_ENDPOINTS.has(endpoint)) return { outcome: { kind: 'drop' }, envelopeCode: result.body.Code };
  return answer(result);
}

/** Runs one request through the pipeline and logs it (service endpoints only). */
export async function handleRequest(ctx: SimContext, credentials: SimCredentials, request: SimRequest): Promise<Outcome> {
  if (!isServiceRequest(request.pathname)) return { kind: 'answer', result: routeAdmin(ctx, request) };
  const route = match(request.pathname);
  if (!route) {
    return { kind: 'answer', result: ctx.envelopes.fail(404, `no endpoint at ${request.method} ${request.pathname}`, { status: 404 }) };
  }
  const { plan, metrics } = ctx.state.internals;
  const decision = plan.decide(route.endpoint);
  const { outcome, envelopeCode } = await runEndpoint(ctx, credentials, route, request, decision);
  const logged = request.body === '' ? undefined : parseJson(request.body);
  metrics.record({
    endpoint: route.endpoint,
    status: outcome.kind === 'drop' ? 0 : outcome.result.status,
    envelopeCode,
    at: Date.now(),
    body: logged?.ok ? logged.value : undefined,
  });
  return outcome;
}
