/**
 * Webhook URLs are secrets (a Slack incoming-webhook URL is its own credential): they are
 * stored, and shown only masked, as scheme and host with the rest hidden.
 */

/** Why a string is not a usable webhook URL, or undefined when it is one. */
export function webhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.hostname === '') return 'must name a host';
  return undefined;
}

/** `https://hooks.slack.com/***`: scheme, host and port only; never the path, query or user info. */
export function maskWebhookUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}/***`;
  } catch {
    return '***';
  }
}

/** A stored webhook as it may be shown: its kept scheme and host, or a plain (older) URL masked. */
export function shownWebhook(config: { webhook: string | object; webhookShown?: string | undefined }): string {
  if (config.webhookShown !== undefined) return config.webhookShown;
  return typeof config.webhook === 'string' ? maskWebhookUrl(config.webhook) : '***';
}

/** A path segment at least this long is taken for a token (Slack's, Discord's); shorter ones are words like `services`. */
const TOKEN_SEGMENT_LENGTH = 16;
/** A user name or query value at least this long is taken for a credential; shorter ones are words like `json`. */
const CREDENTIAL_VALUE_LENGTH = 8;

/**
 * The values of a webhook URL that the scrubber must hide: the URL itself (as written and as
 * parsed), its password, and what after its host (the path with the query, the query, the user
 * name, each query value, each path segment) is long enough to be a token; shorter parts are
 * words (`/alerts`, `json`) that scrubbing would blank everywhere. The scheme and host stay: they are what maskWebhookUrl shows.
 */
export function webhookSecrets(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [text];
  }
  const decoded = (value: string): string => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  const long = (min: number) => (value: string) => value.length >= min;
  const secrets = [text, url.href, url.password, decoded(url.password)];
  secrets.push(...[`${url.pathname}${url.search}${url.hash}`, url.search].filter(long(TOKEN_SEGMENT_LENGTH)));
  secrets.push(...[url.username, decoded(url.username)].filter(long(CREDENTIAL_VALUE_LENGTH)));
  secrets.push(...[...url.searchParams.values()].filter(long(CREDENTIAL_VALUE_LENGTH)));
  const segments = url.pathname.split('/').filter(long(TOKEN_SEGMENT_LENGTH));
  secrets.push(...segments, ...segments.map(decoded));
  if (url.hash.length > CREDENTIAL_VALUE_LENGTH) secrets.push(url.hash.slice(1));
  return [...new Set(secrets.filter((value) => value !== '' && value !== '/'))];
}
