/**
 * CSRF defence for state-changing requests.
 *
 * The dashboard's own forms use a synchroniser token bound to the credentials: the token is
 * HMAC(process secret, caller identity), rendered into each form and checked on POST. A page of
 * another origin cannot read it (same-origin policy), and browsers re-send basic-auth credentials
 * cross-site, so the token — not the credentials — is what proves the POST came from our page.
 * The secret is random per process: a restart invalidates open forms, which is harmless.
 *
 * bull-board's bundled UI cannot carry our token, so its mutating API calls (PUT/POST/DELETE) are
 * checked by origin instead: a browser always sends `Origin` on such requests, and it must be
 * this dashboard's own origin. Clients without an Origin header (curl, scripts) are not browsers
 * and cannot be driven by another site, so they pass on their credentials alone.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Csrf {
  tokenFor(identity: string): string;
  verify(identity: string, token: string | undefined): boolean;
}

export function createCsrf(secret: Buffer = randomBytes(32)): Csrf {
  const tokenFor = (identity: string): string => createHmac('sha256', secret).update(`csrf\u0000${identity}`).digest('base64url');
  return {
    tokenFor,
    verify(identity, token) {
      if (token === undefined || token === '') return false;
      const expected = Buffer.from(tokenFor(identity));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/**
 * Whether a request's Origin (when present) is this dashboard's own origin, judged against the
 * Host header the browser used. An absent Origin is allowed (see the module comment).
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
