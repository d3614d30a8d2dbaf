/**
 * Admin routes (/__reso/*): seed, change and remove records with chosen timestamps, read the
 * counters, reconfigure, revoke tokens, reset. No auth on purpose (a test tool); the router
 * answers them for loopback clients only.
 */
import type { z } from 'zod';
import { validate } from '../validation.js';
import {
  modifySchema,
  purgeEventsSchema,
  removeSchema,
  resetSchema,
  seedSchema,
  setMediaSchema,
  setStatusSchema,
  stampedKeysSchema,
} from './admin-schemas.js';
import { resoConfigSchema } from './config.js';
import type { ResoSimState } from './state.js';
import type { ResoRecords } from './store.js';
import type { ResoAnswer, ResoStatus } from './types.js';

type AdminHandler = (state: ResoSimState, body: unknown, params: URLSearchParams) => ResoAnswer;
type Route = Partial<Record<'GET' | 'POST', AdminHandler>>;

const ok = (body: unknown): ResoAnswer => ({ status: 200, body });
const fail = (status: number, message: string): ResoAnswer => ({ status, body: { error: { code: String(status), message } } });

/** Validates the body with `schema` (400 naming the fields), else runs `act`. */
function withBody<T>(schema: z.ZodType<T>, act: (state: ResoSimState, input: T) => ResoAnswer): AdminHandler {
  return (state, body) => {
    const parsed = validate(schema, body);
    return parsed.ok ? act(state, parsed.value) : fail(400, parsed.message);
  };
}

/** The changed records as they are now, so a test learns the stamps they got. */
const changedRecords = (state: ResoSimState, keys: readonly string[]): ResoAnswer =>
  ok({ records: keys.flatMap((key) => state.records.get(key)?.property ?? []) });

/** A POST that changes the records named by `keys`: 404 when one is unknown, else `change`, then `answer`. */
function changing<T extends { keys: string[] }>(
  schema: z.ZodType<T>,
  change: (records: ResoRecords, input: T) => void,
  answer: (state: ResoSimState, keys: readonly string[]) => ResoAnswer = changedRecords,
): Route {
  return {
    POST: withBody(schema, (state, input) => {
      const unknown = state.records.unknownKeys(input.keys);
      if (unknown.length > 0) return fail(404, `no record with ListingKey ${unknown.map((key) => `'${key}'`).join(', ')}`);
      change(state.records, input);
      return answer(state, input.keys);
    }),
  };
}

const statusRoute = (status: ResoStatus): Route => changing(stampedKeysSchema, (records, input) => records.setStatus({ ...input, status }));

const ROUTES: Readonly<Record<string, Route>> = {
  '/__reso/state': {
    GET: (state) =>
      ok({ counters: state.counters(), suspended: state.suspended() ?? null, config: state.currentConfig(), records: state.records.size }),
  },
  '/__reso/counters': { GET: (state) => ok(state.counters()) },
  '/__reso/requests': { GET: (state) => ok({ requests: state.requests() }) },
  '/__reso/records': {
    GET: (state, _body, params) => {
      const key = params.get('key');
      if (key === null) return ok({ records: state.records.list() });
      const record = state.records.get(key);
      return record === undefined ? fail(404, `no record with ListingKey '${key}'`) : ok(record);
    },
  },
  '/__reso/config': {
    GET: (state) => ok(state.currentConfig()),
    POST: withBody(resoConfigSchema, (state, input) => ok(state.configure(input))),
  },
  '/__reso/seed': { POST: withBody(seedSchema, (state, input) => ok({ keys: state.records.seed(input) })) },
  '/__reso/modify': changing(modifySchema, (records, input) => records.modify(input)),
  '/__reso/status': changing(setStatusSchema, (records, input) => records.setStatus(input)),
  '/__reso/withdraw': statusRoute('Withdrawn'),
  '/__reso/expire': statusRoute('Expired'),
  '/__reso/cancel': statusRoute('Canceled'),
  '/__reso/delete': statusRoute('Delete'),
  '/__reso/hide': changing(stampedKeysSchema, (records, input) => records.hide(input)),
  '/__reso/remove': changing(
    removeSchema,
    (records, input) => records.remove(input),
    (_state, keys) => ok({ removed: keys }),
  ),
  '/__reso/media': changing(
    setMediaSchema,
    (records, input) => records.setMedia(input),
    (state, keys) => ok({ records: keys.flatMap((key) => state.records.get(key) ?? []) }),
  ),
  // The EntityEvent log: read it, compact it (latest event per record), purge history below a sequence (retention).
  '/__reso/events': { GET: (state) => ok({ events: state.records.events.list(), lastSequence: state.records.events.lastSequence }) },
  '/__reso/events/compact': { POST: (state) => ok({ dropped: state.records.events.compact() }) },
  '/__reso/events/purge': {
    POST: withBody(purgeEventsSchema, (state, input) => ok({ dropped: state.records.events.purge(input.below) })),
  },
  '/__reso/revoke-tokens': { POST: (state) => ok({ revoked: state.revokeTokens() }) },
  '/__reso/reset': {
    POST: withBody(resetSchema, (state, input) => {
      state.reset(input);
      return ok({ counters: state.counters(), suspended: state.suspended() ?? null });
    }),
  },
};

/** Answers one admin request; `body` is the raw request body (JSON, or empty for {}). */
export function answerAdmin(state: ResoSimState, method: string, pathname: string, params: URLSearchParams, body: string): ResoAnswer {
  const route = ROUTES[pathname];
  if (route === undefined) return fail(404, `no admin route ${pathname} (routes: ${Object.keys(ROUTES).join(', ')})`);
  const handle = method === 'GET' || method === 'POST' ? route[method] : undefined;
  const allowed = Object.keys(route).join(', ');
  if (handle === undefined) return { ...fail(405, `${pathname} takes ${allowed}`), headers: { allow: allowed } };
  let parsed: unknown = {};
  if (body.trim() !== '') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return fail(400, 'the body is not JSON');
    }
  }
  return handle(state, parsed, params);
}
