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
