/**
 * The setting behind each credential header (api-spec 5; env names from the design's
 * "Environment"), so a rejected key is reported by the name an operator sets, not the header.
 */
import { AUTH_HEADERS, ENDPOINTS, type EndpointName } from './endpoints.js';

const ENV_OF_HEADER: ReadonlyArray<readonly [header: string, env: string]> = [
  [AUTH_HEADERS.secret, 'API_SECRET_KEY'],
  [AUTH_HEADERS.session, 'API_SESSION_KEY'],
  [AUTH_HEADERS.project, 'PROJECT_AUTH_TOKEN'],
];

const ENV_OF_AUTH = {
  secret: 'API_SECRET_KEY',
  session: 'API_SESSION_KEY',
  project: 'PROJECT_AUTH_TOKEN',
  secretOrSession: 'API_SECRET_KEY or API_SESSION_KEY',
} as const;

/**
 * The env name(s) to check when `endpoint` was refused. Why the service's message first: for
 * endpoints that accept either key it may say which header it refused; otherwise the endpoint's own.
 */
export function rejectedCredentialSetting(endpoint: EndpointName, serviceMessage: string | undefined): string {
  const said = (serviceMessage ?? '').toLowerCase();
  const named = ENV_OF_HEADER.filter(([header]) => said.includes(header)).map(([, env]) => env);
  return named.length > 0 ? named.join(' and ') : ENV_OF_AUTH[ENDPOINTS[endpoint].auth];
}
