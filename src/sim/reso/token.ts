/**
 * OAuth2 client-credentials grant (RFC 6749 §4.4) and bearer-token checks. Tokens are short
 * lived, and can die early (server-side revocation before expires_in), as real MLS tokens do
 * when the MLS rotates keys: a client must renew on 401, not only on its own clock.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ResoAnswer, ResoCredentials } from './types.js';

interface IssuedToken {
  expiresAt: number;
  /** Earlier than expiresAt when the token is revoked server-side at that time. */
  revokedAt: number;
}

export type TokenCheck = { ok: true } | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'revoked' };

/** Tokens are kept this long past their end, so a late one is told "expired", not "unknown". */
const KEEP_AFTER_END_MS = 86_400_000;

export class TokenIssuer {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly now: () => number) {}

  /** Issues a token valid `ttlSeconds`, revoked after `revokeAfterMs` when that is sooner. */
  issue(ttlSeconds: number, revokeAfterMs?: number): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    const now = this.now();
    for (const [token, issued] of this.tokens) if (issued.expiresAt + KEEP_AFTER_END_MS < now) this.tokens.delete(token);
    const token = randomBytes(24).toString('base64url');
    const expiresAt = now + ttlSeconds * 1000;
    this.tokens.set(token, { expiresAt, revokedAt: revokeAfterMs === undefined ? Infinity : now + revokeAfterMs });
    return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
  }

  /** Checks the Authorization header of a resource request. */
  check(authorization: string | undefined): TokenCheck {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (match?.[1] === undefined) return { ok: false, reason: 'missing' };
    const issued = this.tokens.get(match[1]);
    if (issued === undefined) return { ok: false, reason: 'unknown' };
    const now = this.now();
    if (now >= issued.revokedAt && issued.revokedAt < issued.expiresAt) return { ok: false, reason: 'revoked' };
    if (now >= issued.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true };
  }

  /** Every token issued and still kept (live, ended or revoked), oldest first. */
  issued(): string[] {
    return [...this.tokens.keys()];
  }

  /** Revokes every live token now; returns how many. */
  revokeAll(): number {
    const now = this.now();
    let revoked = 0;
    for (const issued of this.tokens.values()) {
      if (now < issued.expiresAt && now < issued.revokedAt) {
        issued.revokedAt = now;
        revoked += 1;
      }
    }
    return revoked;
  }
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** application/x-www-form-urlencoded decoding of one part of HTTP basic credentials (RFC 6749 §2.3.1). */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

const oauthError = (status: number, error: string, description: string, headers: Record<string, string> = {}): ResoAnswer => ({
  status,
  body: { error, error_description: description },
  headers: { 'cache-control': 'no-store', ...headers },
});

export interface TokenRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Answers POST /oauth2/token. Credentials as HTTP basic auth or client_id/client_secret in the
 * form body (both are in the wild; RFC 6749 requires servers to take basic). Errors are OAuth
 * JSON ({ error, error_description }) and never echo what was sent.
 */
export function answerTokenRequest(
  request: TokenRequest,
  credentials: ResoCredentials,
  issue: () => ReturnType<TokenIssuer['issue']>,
): ResoAnswer {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'the token request must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(request.body);
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');
  }
  const basic = basicCredentials(request.headers.authorization);
  const given = basic ?? { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  if (given.id === '' && given.secret === '') {
    return oauthError(401, 'invalid_client', 'no client credentials (HTTP basic auth or client_id/client_secret)', {
      'www-authenticate': 'Basic realm="reso-sim"',
    });
  }
  const idOk = same(given.id, credentials.clientId) || (basic !== undefined && same(formDecoded(given.id), credentials.clientId));
  const secretOk =
    same(given.secret, credentials.clientSecret) || (basic !== undefined && same(formDecoded(given.secret), credentials.clientSecret));
  if (!idOk || !secretOk)
    return oauthError(401, 'invalid_client', 'unknown client or wrong secret', { 'www-authenticate': 'Basic realm="reso-sim"' });
  return { status: 200, body: issue(), headers: { 'cache-control': 'no-store', pragma: 'no-cache' } };
}
