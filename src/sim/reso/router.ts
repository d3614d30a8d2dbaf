/**
 * The request pipeline, free of node:http. Resource requests go: count against the budget →
 * suspended? (429) → method → bearer token (401) → injected fault → query (400) → page. Every
 * resource request is counted, refused ones too: the budget is about what the server sees.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { answerAdmin } from './admin.js';
import { answerEntityEvents, ENTITY_EVENT_SPEC } from './entity-event-resource.js';
import { inServedNames, inStoreNames, renamedFields } from './field-names.js';
import { answerLookups, LOOKUP_SPEC, lookupRecords } from './lookup-resource.js';
import { parseQuery, type ResourceSpec } from './odata-query.js';
import { answerMetadata } from './metadata.js';
import { preferredPageSize } from './paging.js';
import { answerMedia, answerProperty, MEDIA_SPEC, PROPERTY_SPEC, type PageContext } from './resources.js';
import type { ResoSimState } from './state.js';
import { answerTokenRequest, type TokenCheck } from './token.js';
import type { ResoAnswer } from './types.js';

export const ADMIN_PREFIX = '/__reso/';
export const TOKEN_PATH = '/oauth2/token';
export const SERVICE_PATH = '/odata';

export interface ResoRequest {
  method: string;
  /** Path and query as received, e.g. /odata/Property?$top=10 */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  remoteAddress: string | undefined;
}

export interface ResoResponse {
  status: number;
  headers: Record<string, string>;
  payload: string;
}

const odataError = (status: number, message: string, headers: Record<string, string> = {}): ResoAnswer => ({
  status,
  body: { error: { code: String(status), message } },
  headers,
});

const UNAUTHORIZED: Readonly<Record<Exclude<TokenCheck, { ok: true }>['reason'], string>> = {
  missing: 'a bearer token is required (Authorization: Bearer <token from POST /oauth2/token>)',
  unknown: 'the bearer token is not known',
  expired: 'the bearer token has expired',
  revoked: 'the bearer token was revoked',
};

/** Whether the peer is this machine: admin routes change records and need no auth. */
function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

function serialize(answer: ResoAnswer): ResoResponse {
  const xml = typeof answer.body === 'string';
  return {
    status: answer.status,
    headers: {
      'content-type': xml ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8',
      // OData services name their protocol version on every response (OData 4.01 Part 1 §8.1.5).
      'odata-version': '4.0',
      ...answer.headers,
    },
    payload: xml ? (answer.body as string) : JSON.stringify(answer.body),
  };
}

function serveResource(state: ResoSimState, serviceRoot: string, request: ResoRequest, url: URL): ResoAnswer {
  const { tokens, budget, plan } = state.internals;
  const suspension = budget.suspended();
  if (suspension !== undefined) return odataError(429, `client suspended: ${suspension}; the MLS lifts it (here: POST /__reso/reset)`);
  if (request.method !== 'GET') return odataError(405, `${url.pathname} takes GET`, { allow: 'GET' });
  const token = tokens.check(request.headers.authorization);
  if (!token.ok) {
    const challenge = token.reason === 'missing' ? 'Bearer realm="reso-sim"' : 'Bearer realm="reso-sim", error="invalid_token"';
    return odataError(401, UNAUTHORIZED[token.reason], { 'www-authenticate': challenge });
  }
  const fault = plan.decide();
  if (fault !== undefined) return plan.answer(fault);
  const resource = url.pathname.slice(SERVICE_PATH.length + 1);
  const config = state.currentConfig();
  if (resource === '$metadata') return answerMetadata(config);
  const specs: Readonly<Record<string, ResourceSpec>> = {
    Property: PROPERTY_SPEC,
    Media: MEDIA_SPEC,
    EntityEvent: ENTITY_EVENT_SPEC,
    ...(config.lookups === undefined ? {} : { Lookup: LOOKUP_SPEC }),
  };
  const spec = Object.hasOwn(specs, resource) ? specs[resource] : undefined;
  if (spec === undefined) return odataError(404, `no resource '${resource}' (resources: ${Object.keys(specs).join(', ')})`);
  const renamed = spec === PROPERTY_SPEC ? renamedFields(config.fieldNames) : new Map<string, string>();
  const params = inStoreNames(url.searchParams, renamed);
  if (typeof params === 'string') return odataError(400, params);
  const query = parseQuery(params, spec);
  if (!query.ok) return odataError(400, query.message);
  const preferred = preferredPageSize(request.headers.prefer);
  const context: PageContext = {
    config,
    serviceRoot,
    params: url.searchParams,
    ...(preferred === undefined ? {} : { preferredPageSize: preferred }),
    ...(state.media.enabled ? { photoUrl: (photo) => state.media.urlFor(serviceRoot.slice(0, -SERVICE_PATH.length), photo) } : {}),
  };
  if (spec === ENTITY_EVENT_SPEC) return answerEntityEvents(state.records.events.rows(), query.value, context);
  if (spec === LOOKUP_SPEC) return answerLookups(lookupRecords(config.lookups ?? []), query.value, context);
  if (spec === MEDIA_SPEC) return answerMedia((key, compare) => state.records.orderedMedia(key, compare), query.value, context);
  const answer = answerProperty((key, compare) => state.records.ordered(key, compare), query.value, context);
  inServedNames(answer.body, renamed);
  return answer;
}

/** Answers one request; `serviceRoot` is the absolute URL of /odata (for nextLink and context). */
export function handleResoRequest(state: ResoSimState, serviceRoot: string, request: ResoRequest): ResoResponse {
  const url = new URL(request.url, 'http://reso-sim.invalid');
  if (url.pathname.startsWith(ADMIN_PREFIX)) {
    if (!isLoopback(request.remoteAddress)) return serialize(odataError(403, 'admin routes answer loopback clients only'));
    return serialize(answerAdmin(state, request.method, url.pathname, url.searchParams, request.body));
  }
  if (url.pathname === TOKEN_PATH) {
    if (request.method !== 'POST') return serialize(odataError(405, `${TOKEN_PATH} takes POST`, { allow: 'POST' }));
    return serialize(answerTokenRequest(request, state.credentials, state.internals.issueToken));
  }
  if (!url.pathname.startsWith(`${SERVICE_PATH}/`))
    return serialize(odataError(404, `nothing at ${url.pathname} (resources are under ${SERVICE_PATH}/)`));
  const { budget, counters } = state.internals;
  const now = state.now();
  counters.seen(budget.count(now));
  const answer = serveResource(state, serviceRoot, request, url);
  const response = serialize(answer);
  const bytes = Buffer.byteLength(response.payload);
  budget.countBytes(now, bytes);
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const prefer = header('prefer');
  const odataMaxVersion = header('odata-maxversion');
  counters.answered({
    at: now,
    url: request.url,
    status: answer.status,
    records: answer.records ?? 0,
    media: answer.media ?? 0,
    bytes,
    ...(prefer === undefined ? {} : { prefer }),
    ...(odataMaxVersion === undefined ? {} : { odataMaxVersion }),
  });
  return response;
}
