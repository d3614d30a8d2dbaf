/**
 * Refuses a configuration that would send a credential over plain http to another machine: the
 * service's keys to API_BASE_URL or SITE_URL, the feed's OAuth client secret to its token URL.
 * Checked with the rest of the configuration, so the command stops (exit 2) before any connection.
 */
import { plainHttpHost, plainHttpRefusal } from '../shared/plain-http.js';

interface Values {
  API_BASE_URL?: string | undefined;
  API_SECRET_KEY?: string | undefined;
  API_SESSION_KEY?: string | undefined;
  PROJECT_AUTH_TOKEN?: string | undefined;
  FEED_OAUTH_TOKEN_URL?: string | undefined;
  FEED_OAUTH_CLIENT_SECRET?: string | undefined;
  LISTING_SYNC_PLAIN_HTTP_HOSTS?: string[] | undefined;
}

/** One line per URL that would carry a configured credential in clear. */
export function clearCredentialProblems(values: Values): string[] {
  const allowed = values.LISTING_SYNC_PLAIN_HTTP_HOSTS ?? [];
  const problems: string[] = [];
  const check = (setting: keyof Values, url: string | undefined, what: string, carried: boolean): void => {
    if (url === undefined || !carried) return;
    const host = plainHttpHost(url, allowed);
    if (host !== undefined) problems.push(`  ${setting}: ${plainHttpRefusal(what, setting, host)}`);
  };
  const serviceKeys = [values.API_SECRET_KEY, values.API_SESSION_KEY, values.PROJECT_AUTH_TOKEN].some((key) => key !== undefined);
  check('API_BASE_URL', values.API_BASE_URL, "the service's API keys", serviceKeys);
  check('FEED_OAUTH_TOKEN_URL', values.FEED_OAUTH_TOKEN_URL, 'the feed OAuth client secret', values.FEED_OAUTH_CLIENT_SECRET !== undefined);
  return problems;
}
