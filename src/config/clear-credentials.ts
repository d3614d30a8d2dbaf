/**
 * Refuses a configuration that would send a credential over plain http to another machine: the
 * service's keys to API_BASE_URL, PROJECT_AUTH_TOKEN to SITE_URL (the table listing), the feed's
 * OAuth client secret to its token URL, and a webhook URL (itself a credential) to its host.
 * Checked with the rest of the configuration, so the command stops (exit 2) before any connection;
 * a webhook when it is given (`alerts add`, `fleet apply`) and again before each delivery.
 */
import { plainHttpHost, plainHttpRefusal } from '../shared/plain-http.js';

interface Values {
  API_BASE_URL?: string | undefined;
  SITE_URL?: string | undefined;
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
  check('SITE_URL', values.SITE_URL, 'PROJECT_AUTH_TOKEN (the table listing sends it)', values.PROJECT_AUTH_TOKEN !== undefined);
  check('FEED_OAUTH_TOKEN_URL', values.FEED_OAUTH_TOKEN_URL, 'the feed OAuth client secret', values.FEED_OAUTH_CLIENT_SECRET !== undefined);
  return problems;
}

/** LISTING_SYNC_PLAIN_HTTP_HOSTS as a list: comma-separated hostnames, lower case. */
export function plainHttpHostList(text: string): string[] {
  return text
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
}

/**
 * Why a webhook URL may not be used, or undefined: plain http to a host that is neither loopback
 * nor allowed. Why every webhook and not only one with a token in it: its path is its credential
 * (a Slack or Teams incoming webhook), so the whole URL is treated as one.
 */
export function webhookClearProblem(url: string, setting: string, allowed: readonly string[]): string | undefined {
  const host = plainHttpHost(url, allowed);
  return host === undefined ? undefined : plainHttpRefusal('the webhook URL (a credential: its path, query and user info)', setting, host);
}
