/**
 * Credential checks per api-spec section 5, reading the simulator's own endpoint table (spec/endpoints.ts). Messages name
 * the header that is missing or wrong, never the value that was sent.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AUTH_HEADERS, SIM_ENDPOINTS as ENDPOINTS, type EndpointName } from './spec/endpoints.js';
import type { SimCredentials } from './types.js';

type AuthResult = { ok: true } | { ok: false; message: string };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

type Check = 'missing' | 'wrong' | 'ok';

function check(headers: IncomingHttpHeaders, name: string, expected: string): Check {
  const given = header(headers, name);
  if (given === undefined || given === '') return 'missing';
  return same(given, expected) ? 'ok' : 'wrong';
}

function failure(name: string, result: Exclude<Check, 'ok'>): AuthResult {
  return { ok: false, message: result === 'missing' ? `missing ${name} header` : `wrong ${name} header value` };
}

/** Whether the request carries the credential its endpoint needs. */
export function authorize(endpoint: EndpointName, headers: IncomingHttpHeaders, credentials: SimCredentials): AuthResult {
  const kind = ENDPOINTS[endpoint].auth;
  const secret = (): Check => check(headers, AUTH_HEADERS.secret, credentials.secretKey);
  const session = (): Check => check(headers, AUTH_HEADERS.session, credentials.sessionKey);
  switch (kind) {
    case 'secret': {
      const result = secret();
      return result === 'ok' ? { ok: true } : failure('Authorization', result);
    }
    case 'session': {
      const result = session();
      return result === 'ok' ? { ok: true } : failure(AUTH_HEADERS.session, result);
    }
    case 'project': {
      const result = check(headers, AUTH_HEADERS.project, credentials.projectAuthToken);
      return result === 'ok' ? { ok: true } : failure(AUTH_HEADERS.project, result);
    }
    case 'secretOrSession': {
      // Why either credential: section 5's header table says Authorization, its examples send
      // chatrobot-sessionkey; accepting either is the reading that works with both. Why a wrong one
      // fails even beside a right one: a credential sent is a claim, and a service that ignored a
      // wrong key would let a sync with a mistyped API_SECRET_KEY report success.
      const bySecret = secret();
      const bySession = session();
      if (bySecret === 'wrong') return failure('Authorization', 'wrong');
      if (bySession === 'wrong') return failure(AUTH_HEADERS.session, 'wrong');
      if (bySecret === 'ok' || bySession === 'ok') return { ok: true };
      return { ok: false, message: `missing Authorization or ${AUTH_HEADERS.session} header` };
    }
  }
}
