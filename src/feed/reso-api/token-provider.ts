/**
 * Bearer tokens for a feed server: OAuth2 client credentials (RFC 6749 §4.4) or a static token.
 * A fetched token is kept in memory only, renewed shortly before its `expires_in` runs out and
 * once more when the server refuses it (MLSs revoke tokens early when they rotate keys). No token,
 * secret or credential header ever enters a message: errors say what failed and what to check.
 */
import { z } from 'zod';
import { feedInterrupted } from '../feed-error.js';
import { displaySource } from '../feed-source.js';
import { exchange, ExchangeFailure, type Exchange } from './http-exchange.js';
import { authFailed, redact } from './reso-errors.js';

export interface TokenProvider {
  /** The Authorization header for the next request: the cached token, or a new one when none is cached or it is about to end. */
  authorization(signal?: AbortSignal): Promise<string>;
  /**
   * The server answered 401 to a request sent with `authorization`: forgets that token. True when
   * the next `authorization()` brings a new one (the request may be repeated once), false when it
   * cannot (a static token).
   */
  rejected(authorization: string): boolean;
  /** `text` with every secret and token this provider knows replaced by [redacted] (for quoting a server). */
  redact(text: string): string;
  /** Tokens fetched from the token endpoint so far. */
  readonly fetched: number;
}

export interface ClientCredentialsOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /**
   * Where the credentials go: HTTP basic auth (default; RFC 6749 requires every server to take
   * it) or client_id/client_secret in the form body, which some platforms document instead.
   */
  credentialsIn?: 'basic' | 'body';
  /** Renew this long before the token's end (default 60 s, at most a quarter of its lifetime). */
  renewMarginMs?: number;
  /** Deadline of the token request (default 30 s). */
  timeoutMs?: number;
  /** The clock, epoch ms (default Date.now). */
  now?: () => number;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
});

/** The OAuth error code of a refusal (`invalid_client`…), when it is one: never free text, which could quote what was sent. */
function oauthErrorCode(answer: Exchange): string | undefined {
  try {
    const code = (JSON.parse(answer.text) as { error?: unknown }).error;
    return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 wants each part of the basic credentials. */
const formEncoded = (text: string): string => new URLSearchParams([['', text]]).toString().slice(1);

const CREDENTIALS_FIX = 'Check FEED_OAUTH_TOKEN_URL, FEED_OAUTH_CLIENT_ID, FEED_OAUTH_CLIENT_SECRET and FEED_OAUTH_SCOPE.';

/** Tokens from an OAuth2 token endpoint by the client-credentials grant. */
export function clientCredentialsTokens(options: ClientCredentialsOptions): TokenProvider {
  const where = displaySource(options.tokenUrl);
  const now = options.now ?? Date.now;
  const basic = `Basic ${Buffer.from(`${formEncoded(options.clientId)}:${formEncoded(options.clientSecret)}`).toString('base64')}`;
  const known: string[] = [options.clientSecret, basic.slice('Basic '.length)];
  let current: { header: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  let fetched = 0;

  const send = async (signal: AbortSignal | undefined): Promise<Exchange> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (options.scope !== undefined && options.scope !== '') form.set('scope', options.scope);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (options.credentialsIn === 'body') {
      form.set('client_id', options.clientId);
      form.set('client_secret', options.clientSecret);
    } else headers.authorization = basic;
    try {
      const timeoutMs = options.timeoutMs ?? 30_000;
      return await exchange({
        method: 'POST',
        url: options.tokenUrl,
        headers,
        body: form.toString(),
        timeoutMs,
        maxBytes: 1 << 20,
        signal,
      });
    } catch (thrown) {
      if (signal?.aborted === true) throw feedInterrupted(where);
      const detail = thrown instanceof ExchangeFailure ? thrown.detail : 'unknown';
      throw authFailed(where, `the token request failed (${detail})`, 'Check that the token endpoint is reachable.', true);
    }
  };

  const fetchToken = async (signal: AbortSignal | undefined): Promise<string> => {
    const sentAt = now();
    const answer = await send(signal);
    if (answer.status !== 200) {
      const code = oauthErrorCode(answer);
      // Why retryable only for 5xx and 429: a refused client stays refused until someone fixes the credentials.
      const retryable = answer.status >= 500 || answer.status === 429;
      throw authFailed(
        where,
        `the token endpoint answered HTTP ${answer.status}${code === undefined ? '' : ` ${code}`}`,
        CREDENTIALS_FIX,
        retryable,
      );
    }
    let parsed: z.infer<typeof tokenAnswer>;
    try {
      parsed = tokenAnswer.parse(JSON.parse(answer.text));
    } catch {
      throw authFailed(where, 'the token endpoint answered without an access_token', CREDENTIALS_FIX);
    }
    fetched += 1;
    // Why keep a few: a token refused a moment ago may still be quoted by an answer in flight.
    known.push(parsed.access_token);
    if (known.length > 12) known.splice(2, 1);
    const lifetime = parsed.expires_in === undefined ? undefined : parsed.expires_in * 1000;
    // Why a margin capped at a quarter of the lifetime: renewing shortly before the end keeps a
    // request from leaving with a token that ends on the way, and the cap keeps a short-lived
    // token from being renewed before every request.
    const margin = lifetime === undefined ? 0 : Math.min(options.renewMarginMs ?? 60_000, lifetime / 4);
    const header = `Bearer ${parsed.access_token}`;
    current = { header, renewAt: lifetime === undefined ? Infinity : sentAt + lifetime - margin };
    return header;
  };

  return {
    authorization(signal) {
      if (current !== undefined && now() < current.renewAt) return Promise.resolve(current.header);
      // One token request at a time, however many requests want a token.
      pending ??= fetchToken(signal).finally(() => {
        pending = undefined;
      });
      return pending;
    },
    rejected(authorization) {
      if (current?.header === authorization) current = undefined;
      return true;
    },
    redact: (text) => redact(text, known),
    get fetched() {
      return fetched;
    },
  };
}

/** A token given as is (FEED_TOKEN): never renewed, so a 401 is final. */
export function staticBearerToken(token: string): TokenProvider {
  const header = `Bearer ${token}`;
  return {
    authorization: () => Promise.resolve(header),
    rejected: () => false,
    redact: (text) => redact(text, [token]),
    fetched: 0,
  };
}
